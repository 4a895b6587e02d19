package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legate bridge} as a real process in front of interop/acp-agent.mjs (an agent written with
 * the official ACP SDK): the card comes from the agent, a task runs, and SIGTERM leaves no agent
 * process behind. Needs Node.js; a missing one fails the test.
 */
class BridgeCommandTest {
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void reap() throws InterruptedException {
        for (Process p : started) {
            p.destroyForcibly();
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("bridge process stopped").isTrue();
        }
    }

    private Process start(Path dir, Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), Legate.class.getName(), "bridge"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
        for (String key : List.of("HOST", "PORT", "PUBLIC_URL", "AGENT_NAME", "ACP_AGENT", "ACP_AGENT_CMD", "ACP_MODE")) {
            pb.environment().remove(key);
        }
        pb.environment().putAll(env);
        Process p = pb.start();
        started.add(p);
        return p;
    }

    private static int port(Process p) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Pattern listening = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");
        StringBuilder seen = new StringBuilder();
        String line;
        while ((line = out.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = listening.matcher(line);
            if (m.find()) {
                Thread.ofVirtual().start(() -> out.lines().forEach(l -> { }));
                return Integer.parseInt(m.group(1));
            }
        }
        throw new AssertionError("the bridge did not report its port; output:\n" + seen);
    }

    private static String post(int port, String body) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static String agentCmd() {
        Path project = Path.of("").toAbsolutePath().getParent();
        return "node '" + project.resolve("interop/acp-agent.mjs") + "'";
    }

    @Test
    void theCardComesFromTheAgentATaskRunsAndSigtermLeavesNoAgentBehind(@TempDir Path dir) throws Exception {
        Process bridge = start(dir, Map.of("PORT", "0", "ACP_AGENT_CMD", agentCmd(), "ACP_MODE", "careful"));
        int port = port(bridge);
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
        for (ProcessHandle agent : agents) {
            agent.onExit().get(10, TimeUnit.SECONDS);
            assertThat(agent.isAlive()).as("agent %d after SIGTERM", agent.pid()).isFalse();
        }
        assertThat(Files.readString(dir.resolve("logs/calls.jsonl"))).contains("\"event\":\"adapter.stop\"");
    }

    @Test
    void anAgentThatCannotStartStopsTheBridgeAtBootSayingWhy(@TempDir Path dir) throws Exception {
        Process bridge = start(dir, Map.of("PORT", "0", "ACP_AGENT_CMD", dir.resolve("no-such-agent").toString()));
        String out = new String(bridge.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bridge.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(bridge.exitValue()).isEqualTo(1);
        assertThat(out).contains("cannot start").contains("no-such-agent").doesNotContain("listening");
    }

    @Test
    void anUnknownBackendIsAUsageError(@TempDir Path dir) throws Exception {
        Process bridge = start(dir, Map.of("PORT", "0", "ACP_AGENT", "gemini"));
        String out = new String(bridge.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bridge.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(bridge.exitValue()).isEqualTo(2);
        assertThat(out).contains("unknown backend 'gemini'").contains("--agent-cmd");
    }
}
