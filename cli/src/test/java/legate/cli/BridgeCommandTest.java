package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.NodeScript;
import legate.testsupport.RunningChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legate bridge} as a real process in front of interop/acp-agent.mjs (an agent written with
 * the official ACP SDK): the card comes from the agent, a task runs, and SIGTERM leaves no agent
 * process behind. Needs Node.js; a missing one fails the test.
 */
class BridgeCommandTest {
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");
    private static final Duration START_LIMIT = Duration.ofSeconds(30);

    // Each bridge started here is stopped after its test, and no agent of it may outlive the test.
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private static ChildCommand legate(Path dir, Map<String, String> env) {
        return ChildCommand.java(Legate.class, "bridge").in(dir)
                .without("HOST", "PORT", "PUBLIC_URL", "AGENT_NAME", "ACP_AGENT", "ACP_AGENT_CMD", "ACP_MODE", "ACP_POLICY",
                        "ACP_PERMISSIONS").env(env);
    }

    private static String post(int port, String body) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** interop/acp-agent.mjs under node, as a shell would quote it for ACP_AGENT_CMD. */
    private static String agentCmd() {
        return NodeScript.of("acp-agent.mjs").commandLine().stream().map(w -> "'" + w + "'").collect(Collectors.joining(" "));
    }

    @Test
    void theCardComesFromTheAgentATaskRunsAndSigtermLeavesNoAgentBehind(@TempDir Path dir) throws Exception {
        RunningChild child = cleanup.register(legate(dir, Map.of("PORT", "0", "ACP_AGENT_CMD", agentCmd(), "ACP_MODE", "careful"))
                .start());
        int port = Integer.parseInt(child.awaitLine(LISTENING, START_LIMIT).group(1));
        Process bridge = child.process();
        String card = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/.well-known/agent-card.json")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(card).contains("\"name\":\"Interop Echo Agent (via ACP)\"");

        String task = post(port, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
                + "{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"mode\"}]}}}");
        assertThat(task).contains("TASK_STATE_COMPLETED").contains("mode careful");
        List<ProcessHandle> agents = bridge.toHandle().descendants().toList();
        assertThat(agents).as("the conversation's agent is running").isNotEmpty();

        bridge.destroy();
        assertThat(bridge.waitFor(20, TimeUnit.SECONDS)).isTrue();
        // DEFECT (issue 30): a drained SIGTERM exited 143, which systemd records as a failure after
        // legate service stop; no turn was running, so the drain was clean: exit status 0.
        assertThat(bridge.exitValue()).as("exit status after a clean drain").isZero();
        for (ProcessHandle agent : agents) {
            agent.onExit().get(10, TimeUnit.SECONDS);
            assertThat(agent.isAlive()).as("agent %d after SIGTERM", agent.pid()).isFalse();
        }
        assertThat(Files.readString(dir.resolve("logs/calls.jsonl"))).contains("\"event\":\"adapter.stop\"");
    }

    // DEFECT (issue 30, second review): a SIGTERM while the bridge waited for its agent's answer to
    // initialize (the start-up probe) left the agent running as an orphan.
    @Test
    void aSigtermDuringTheStartUpProbeLeavesNoAgentBehind(@TempDir Path dir) throws Exception {
        RunningChild child = cleanup.register(legate(dir, Map.of("PORT", "0", "ACP_AGENT_CMD", "sleep 1000")).start());
        Process bridge = child.process();
        ProcessHandle agent = null;
        long deadline = System.nanoTime() + START_LIMIT.toNanos();
        while (agent == null && System.nanoTime() < deadline) {
            agent = bridge.toHandle().descendants().filter(h -> h.info().command().orElse("").endsWith("sleep"))
                    .findFirst().orElse(null);
            if (agent == null) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            }
        }
        assertThat(agent).as("the probed agent process").isNotNull();
        bridge.destroy();
        assertThat(bridge.waitFor(30, TimeUnit.SECONDS)).isTrue();
        agent.onExit().get(10, TimeUnit.SECONDS);
        assertThat(agent.isAlive()).isFalse();
    }

    @Test
    void aRestartedBridgeRestoresTheConversationAndShowsItsStepsOnTheConsole(@TempDir Path dir) throws Exception {
        // Issue 12: the conversation's session id, root and backend are kept in the task store (SQLite in
        // DATA_DIR); after a restart the next task of the context starts the agent with session/load.
        Map<String, String> env = Map.of("PORT", "0", "ACP_AGENT_CMD", agentCmd() + " --load", "ACP_MODE", "careful",
                "DATA_DIR", dir.resolve("data").toString());
        String send = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
                + "{\"messageId\":\"%s\",\"role\":\"ROLE_USER\",\"contextId\":\"kept-ctx\",\"parts\":[{\"text\":\"%s\"}]}}}";
        RunningChild first = cleanup.register(legate(dir, env).start());
        int port = Integer.parseInt(first.awaitLine(LISTENING, START_LIMIT).group(1));
        assertThat(post(port, send.formatted("m1", "remember the lighthouse"))).contains("TASK_STATE_COMPLETED");
        // One console line per step: started, finished with its state and duration.
        first.awaitLine(Pattern.compile("task \\S+ \\(context kept-ctx\\)  finished COMPLETED in \\d+ ms"), START_LIMIT);
        first.process().destroy();
        assertThat(first.process().waitFor(20, TimeUnit.SECONDS)).isTrue();

        RunningChild second = cleanup.register(legate(dir, env).start());
        port = Integer.parseInt(second.awaitLine(LISTENING, START_LIMIT).group(1));
        String recalled = post(port, send.formatted("m2", "recall"));
        assertThat(recalled).contains("TASK_STATE_COMPLETED").contains("earlier: remember the lighthouse")
                .contains("Restored this conversation (session/load of session interop-")
                .doesNotContain("REPLAYED");
    }

    @Test
    void aPolicyFileThatCannotBeUsedIsAUsageErrorNamingFileLineAndField(@TempDir Path dir) throws Exception {
        Path policy = Files.writeString(dir.resolve("policy.yaml"), "rules:\n  - action: allow\n    kinds: [read]\n");
        ChildRun run = legate(dir, Map.of("PORT", "0", "ACP_AGENT_CMD", agentCmd(), "ACP_POLICY", policy.toString()))
                .run(START_LIMIT);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("policy file " + policy + ", line 3, field 'kinds'").doesNotContain("listening");
    }

    @Test
    void keysInDotenvReachTheAgent(@TempDir Path dir) throws Exception {
        // An ANTHROPIC_API_KEY written in .env must reach claude-agent-acp: the agent inherits only the process's environment.
        Files.writeString(dir.resolve(".env"), "LEGATE_DOTENV_PROBE=from-dotenv\nMCP_TOKEN=a-secret-of-legate\n");
        RunningChild child = cleanup.register(legate(dir, Map.of("PORT", "0", "ACP_AGENT_CMD", agentCmd())).start());
        int port = Integer.parseInt(child.awaitLine(LISTENING, START_LIMIT).group(1));
        String task = post(port, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
                + "{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"env LEGATE_DOTENV_PROBE\"}]}}}");
        assertThat(task).contains("env LEGATE_DOTENV_PROBE=from-dotenv");
        // Legate's own settings stay with Legate: a token or a database password is no business of the agent's.
        String secret = post(port, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"SendMessage\",\"params\":{\"message\":"
                + "{\"messageId\":\"m2\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"env MCP_TOKEN\"}]}}}");
        assertThat(secret).contains("env MCP_TOKEN=(unset)").doesNotContain("a-secret-of-legate");
    }

    @Test
    void legatesOwnSettingsInTheEnvironmentNeverReachTheAgent(@TempDir Path dir) throws Exception {
        // DEFECT (issue 30, item 4): only the keys of .env were filtered; MCP_TOKEN, A2A_CLIENT_SECRET and a
        // DATABASE_URL with its password exported for Legate reached the agent, which inherited the environment whole.
        Map<String, String> env = Map.of("PORT", "0", "ACP_AGENT_CMD", agentCmd(), "MCP_TOKEN", "exported-mcp-token",
                "A2A_CLIENT_SECRET", "exported-client-secret", "METRICS_TOKEN", "exported-metrics-token",
                "DATABASE_URL", "postgres://legate:exported-password@127.0.0.1:1/legate", "A2A_TOKEN_CODER", "exported-alias-token",
                "LEGATE_AGENT_PROBE", "for-the-agent");
        RunningChild child = cleanup.register(legate(dir, env).start());
        int port = Integer.parseInt(child.awaitLine(LISTENING, START_LIMIT).group(1));
        int id = 0;
        for (String key : List.of("MCP_TOKEN", "A2A_CLIENT_SECRET", "METRICS_TOKEN", "DATABASE_URL", "A2A_TOKEN_CODER")) {
            String answer = post(port, "{\"jsonrpc\":\"2.0\",\"id\":" + ++id + ",\"method\":\"SendMessage\",\"params\":"
                    + "{\"message\":{\"messageId\":\"m" + id + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"env " + key + "\"}]}}}");
            assertThat(answer).as(key).contains("env " + key + "=(unset)").doesNotContain("exported-");
        }
        // The rest of the environment is the agent's: its own keys (ANTHROPIC_API_KEY and the like) still reach it.
        String kept = post(port, "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"SendMessage\",\"params\":{\"message\":"
                + "{\"messageId\":\"m99\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"env LEGATE_AGENT_PROBE\"}]}}}");
        assertThat(kept).contains("env LEGATE_AGENT_PROBE=for-the-agent");
    }

    @Test
    void anAgentThatCannotStartStopsTheBridgeAtBootSayingWhy(@TempDir Path dir) throws Exception {
        ChildRun run = legate(dir, Map.of("PORT", "0", "ACP_AGENT_CMD", dir.resolve("no-such-agent").toString()))
                .run(START_LIMIT);
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.output()).contains("cannot start").contains("no-such-agent").doesNotContain("listening");
    }

    @Test
    void anUnknownBackendIsAUsageError(@TempDir Path dir) throws Exception {
        ChildRun run = legate(dir, Map.of("PORT", "0", "ACP_AGENT", "gemini")).run(START_LIMIT);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("unknown backend 'gemini'").contains("--agent-cmd");
    }
    /**
     * DEFECT (issue 30): the agent's environment is scrubbed of Legate's secrets, but a secret given as
     * a flag sat in the bridge's /proc/PID/cmdline, readable by the agent and every user, unsaid. Given
     * as flags the bridge names each at start; the same values in the environment draw no warning.
     */
    @Test
    void secretsGivenAsFlagsAreWarnedAboutAndTheSameInTheEnvironmentAreNot(@TempDir Path dir) throws Exception {
        String[] without = {"HOST", "PORT", "PUBLIC_URL", "AGENT_NAME", "ACP_AGENT", "ACP_AGENT_CMD", "ACP_MODE",
                "ACP_POLICY", "ACP_PERMISSIONS", "METRICS_TOKEN", "DATABASE_URL", "TASK_STORE"};
        Map<String, String> env = Map.of("PORT", "0", "ACP_AGENT_CMD", agentCmd(), "TASK_STORE", "memory");
        RunningChild flags = cleanup.register(ChildCommand.java(Legate.class, "bridge", "--metrics-token",
                        "token-on-the-command-line", "--database-url", "postgres://legate:pw@127.0.0.1:1/legate")
                .in(Files.createDirectories(dir.resolve("flags"))).without(without).env(env).start());
        flags.awaitLine(Pattern.compile("legate bridge: warning: --metrics-token on the command line can be read by every"
                + " user of this machine .*/proc/\\d+/cmdline.*set METRICS_TOKEN in the environment or \\.env instead"), START_LIMIT);
        flags.awaitLine(Pattern.compile("legate bridge: warning: the password in --database-url on the command line"), START_LIMIT);
        flags.awaitLine(LISTENING, START_LIMIT);

        RunningChild settings = cleanup.register(ChildCommand.java(Legate.class, "bridge")
                .in(Files.createDirectories(dir.resolve("settings"))).without(without).env(env)
                .env(Map.of("METRICS_TOKEN", "token-in-the-environment", "DATABASE_URL",
                        "postgres://legate:pw@127.0.0.1:1/legate")).start());
        settings.awaitLine(LISTENING, START_LIMIT);
        settings.process().destroy();
        ChildRun run = settings.awaitExit(START_LIMIT);
        assertThat(run.output()).doesNotContain("warning:");
    }
}
