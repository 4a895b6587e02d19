package legate.acp.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import legate.a2a.server.ServerConfig;
import legate.acp.adapter.AdapterConfig;
import legate.acp.adapter.BackendChoice;
import legate.acp.log.BridgeLogs;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.NodeScript;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge between two reference SDKs: interop/acp-agent.mjs (an agent written with
 * @agentclientprotocol/sdk) behind it, the official A2A JS client (@a2a-js/sdk) in front, running
 * interop/acp-bridge-check.mjs. A missing Node.js fails this test; it is never skipped.
 */
class BridgeInteropTest {
    // No agent (node acp-agent.mjs) and no check script may outlive the test.
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    @Test
    void theOfficialClientDrivesTheOfficialAgentThroughTheBridge() throws Exception {
        String node = String.join(" ", NodeScript.of("acp-agent.mjs").commandLine().stream()
                .map(word -> "'" + word + "'").toList());
        BackendChoice agent = BackendChoice.commandLine(node, "careful");
        AdapterConfig adapters = new AdapterConfig(dir.resolve("sandboxes"), null, Duration.ofMinutes(5),
                Duration.ofSeconds(20), Duration.ofMillis(500), AdapterConfig.DEFAULT_MAX_LINE_CHARS);
        Bridge bridge = Bridge.create(new BridgeConfig(ServerConfig.loopback(0), null, null, agent, adapters, false,
                dir.resolve("logs"), BridgeLogs.DEFAULT_MAX_BYTES, BridgeLogs.DEFAULT_MAX_FILES, dir));
        int port = bridge.start();
        ChildRun run;
        try {
            run = NodeScript.test("acp-bridge-check.mjs").env("A2A_URL", "http://127.0.0.1:" + port)
                    .run(Duration.ofSeconds(120));
        } finally {
            bridge.stop();
        }

        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        assertThat(run.stdout()).contains("# fail 0").contains("# pass 8");
    }

    /**
     * ACP_PERMISSIONS=ask between the same two SDKs (interop/acp-ask-check.mjs): allow, reject, an
     * unknown answer, a data-part answer, two requests in one turn, a cancel while asking, and a
     * timeout on a second bridge whose questions wait one second.
     */
    @Test
    void theOfficialClientAnswersTheAgentsQuestionsThroughTheBridge() throws Exception {
        Bridge patient = askingBridge("patient", Duration.ofMinutes(5));
        Bridge impatient = askingBridge("impatient", Duration.ofSeconds(1));
        ChildRun run;
        try {
            int p = patient.start();
            int i = impatient.start();
            run = NodeScript.test("acp-ask-check.mjs").env("A2A_URL", "http://127.0.0.1:" + p)
                    .env("A2A_URL_IMPATIENT", "http://127.0.0.1:" + i).run(Duration.ofSeconds(120));
        } finally {
            patient.stop();
            impatient.stop();
        }
        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        assertThat(run.stdout()).contains("# fail 0").contains("# pass 4");
    }

    private Bridge askingBridge(String name, Duration askTimeout) throws Exception {
        String node = String.join(" ", NodeScript.of("acp-agent.mjs").commandLine().stream()
                .map(word -> "'" + word + "'").toList());
        AdapterConfig adapters = new AdapterConfig(dir.resolve(name), null, Duration.ofMinutes(5),
                Duration.ofSeconds(20), Duration.ofMillis(500), AdapterConfig.DEFAULT_MAX_LINE_CHARS);
        return Bridge.create(new BridgeConfig(ServerConfig.loopback(0), null, null,
                BackendChoice.commandLine(node, "careful"), adapters, false, dir.resolve(name + "-logs"),
                BridgeLogs.DEFAULT_MAX_BYTES, BridgeLogs.DEFAULT_MAX_FILES, dir,
                new BridgeConfig.Supervision(true, null, askTimeout), Map.of(), null, false));
    }
}
