package legate.acp.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import legate.acp.BridgeFixture;
import legate.acp.bridge.BridgeCard;
import legate.acp.connection.ProcessLauncher;
import legate.acp.log.BridgeLogs;
import legate.acp.permission.PermissionRules;
import legate.acp.protocol.InitializeResponse;
import legate.testsupport.Cleanup;
import legate.testsupport.NodeScript;
import legate.testsupport.StreamRecorder;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real adapters pinned in adapters/, with no credentials: the card comes from their real
 * agentInfo, and a task ends FAILED with a plain "not logged in" message. The agents run with a
 * fresh HOME and without API keys, so a machine that has credentials still sees the logged-out path
 * (and spends nothing); IS_SANDBOX=yes is in their base environment, as it is on the machine this
 * was measured on.
 */
class RealAdapterTest {
    // No adapter process, nor the Claude Code or Codex process it started, may outlive a test.
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    private ProcessLauncher loggedOut() throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        for (String key : List.of("ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN", "OPENAI_API_KEY", "CODEX_API_KEY")) {
            env.remove(key);
        }
        Path home = Files.createDirectories(dir.resolve("home"));
        env.put("HOME", home.toString());
        env.put("CODEX_HOME", Files.createDirectories(home.resolve(".codex")).toString());
        // PEER (claude-agent-acp 0.23.1): as root with IS_SANDBOX set to anything but 1, session/new fails
        // with -32603 "Query closed before response received" unless the bridge removes it.
        env.put("IS_SANDBOX", "yes");
        return ProcessLauncher.inEnvironment(env);
    }

    private BridgeFixture bridge(Backend backend) throws Exception {
        return new BridgeFixture(backend, dir.resolve("sandboxes"), loggedOut(),
                PermissionRules.builtIn(backend.supervisedModeId(), false), BridgeLogs.disabled(), Clock.systemUTC());
    }

    private static BackendCatalog catalog() {
        return new BackendCatalog(null, null, List.of(NodeScript.installed("adapters")), System.getenv("PATH"));
    }

    @Test
    void claudeGivesTheCardItsNameAndATaskFailsSayingItIsNotLoggedIn() throws Exception {
        Backend claude = catalog().backend("claude");
        try (BridgeFixture bridge = bridge(claude)) {
            InitializeResponse init = bridge.registry.probe(dir);
            assertThat(init.agentInfo().name()).isEqualTo("@zed-industries/claude-agent-acp");
            AgentCard card = BridgeCard.build(claude, init, null, "http://127.0.0.1:41241/");
            assertThat(card.getName()).isEqualTo("Claude (via ACP)");
            assertThat(card.getDescription()).contains("@zed-industries/claude-agent-acp " + init.agentInfo().version());

            // PEER (claude-agent-acp): session/new succeeds without credentials; the prompt answers -32000.
            StreamRecorder r = bridge.run("claude", "Say hello.");
            assertThat(r.finalState()).as("said %s", r.said()).isEqualTo(TaskState.TASK_STATE_FAILED);
            assertThat(r.lastSaid()).startsWith("Claude is not logged in").contains("/login").contains("ANTHROPIC_API_KEY");
        }
    }

    @Test
    void codexFailsAtSessionNewSayingItIsNotLoggedIn() throws Exception {
        Backend codex = catalog().backend("codex");
        // PEER (codex-acp): spawned as the native binary, not through its Node wrapper.
        assertThat(codex.command().argv().get(0)).endsWith("/bin/codex-acp");
        try (BridgeFixture bridge = bridge(codex)) {
            assertThat(BridgeCard.build(codex, bridge.registry.probe(dir), null, "http://h/").getName())
                    .isEqualTo("Codex (via ACP)");
            StreamRecorder r = bridge.run("codex", "Say hello.");
            assertThat(r.finalState()).as("said %s", r.said()).isEqualTo(TaskState.TASK_STATE_FAILED);
            assertThat(r.lastSaid()).startsWith("Codex is not logged in").contains("session/new").contains("codex login");
        }
    }
}
