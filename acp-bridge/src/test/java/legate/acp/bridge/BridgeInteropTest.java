package legate.acp.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.acp.connection.AdapterCommand;
import legate.acp.connection.ProcessLauncher;
import legate.acp.log.BridgeLogs;
import legate.acp.permission.PermissionClassifier;
import legate.acp.protocol.InitializeResponse;
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
        Backend backend = new Backend(Backend.GENERIC, null,
                AdapterCommand.of(NodeScript.of("acp-agent.mjs").commandLine()), "careful", "");
        BridgeConfig config = new BridgeConfig(dir.resolve("sandboxes"), null, Duration.ofMinutes(5), Duration.ofSeconds(20),
                Duration.ofMillis(500), BridgeConfig.DEFAULT_MAX_LINE_CHARS);
        AdapterRegistry probe = new AdapterRegistry(backend, config, ProcessLauncher.system(),
                new PermissionClassifier("careful", false), BridgeLogs.disabled(), Clock.systemUTC());
        InitializeResponse init = probe.probe(dir);
        Backend named = backend.namedBy(init);
        // Closed last registered first: the server, then the registry and its agents.
        AdapterRegistry registry = cleanup.register(new AdapterRegistry(named, config, ProcessLauncher.system(),
                new PermissionClassifier("careful", false), BridgeLogs.disabled(), Clock.systemUTC()));
        AgentServer server = cleanup.register(AgentServer.create(ServerConfig.loopback(0),
                port -> BridgeCard.build(named, init, null, "http://127.0.0.1:" + port + "/"), new AcpExecutor(registry)));
        int port = server.start();

        ChildRun run = NodeScript.test("acp-bridge-check.mjs").env("A2A_URL", "http://127.0.0.1:" + port)
                .run(Duration.ofSeconds(120));

        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        assertThat(run.stdout()).contains("# fail 0").contains("# pass 7");
    }
}
