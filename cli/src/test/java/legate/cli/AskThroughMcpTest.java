package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import legate.a2a.server.ServerConfig;
import legate.acp.adapter.AdapterConfig;
import legate.acp.adapter.BackendChoice;
import legate.acp.bridge.Bridge;
import legate.acp.bridge.BridgeConfig;
import legate.acp.log.BridgeLogs;
import legate.mcp.McpConfig;
import legate.mcp.McpEndpoint;
import legate.mcp.guard.BearerToken;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.NodeScript;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACP_PERMISSIONS=ask end to end through {@code legate mcp}: the official MCP TypeScript client
 * (interop/mcp-ask-check.mjs) calls a2a_ask on an endpoint publishing a bridge in ask mode, whose agent
 * is interop/acp-agent.mjs (official ACP SDK). The question comes back as an interrupted result with
 * the options and a note saying how to answer, so a calling agent can answer for its user.
 */
class AskThroughMcpTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    @Test
    void aCallingAgentSeesTheQuestionAndAnswersItWithAnOptionId() throws Exception {
        String node = String.join(" ", NodeScript.of("acp-agent.mjs").commandLine().stream()
                .map(word -> "'" + word + "'").toList());
        AdapterConfig adapters = new AdapterConfig(dir.resolve("sandboxes"), null, Duration.ofMinutes(5),
                Duration.ofSeconds(20), Duration.ofMillis(500), AdapterConfig.DEFAULT_MAX_LINE_CHARS);
        Bridge bridge = Bridge.create(new BridgeConfig(ServerConfig.loopback(0), null, null,
                BackendChoice.commandLine(node, "careful"), adapters, false, dir.resolve("logs"),
                BridgeLogs.DEFAULT_MAX_BYTES, BridgeLogs.DEFAULT_MAX_FILES, dir,
                new BridgeConfig.Supervision(true, null, Duration.ofMinutes(5)), Map.of(), null, false));
        BearerToken token = BearerToken.mint(new SecureRandom());
        ChildRun run;
        try {
            int port = bridge.start();
            McpEndpoint mcp = cleanup.register(McpEndpoint.create(McpConfig.loopback(0, token,
                    Map.of(McpConfig.DEFAULT_ALIAS, URI.create("http://127.0.0.1:" + port + "/")))));
            mcp.start();
            run = NodeScript.test("mcp-ask-check.mjs").env(Map.of("MCP_URL", mcp.url(), "MCP_TOKEN", token.value()))
                    .run(Duration.ofSeconds(120));
        } finally {
            bridge.stop();
        }
        assertThat(NodeScript.failedChecks(run)).as("failed checks; output:\n%s", run.output()).isEmpty();
        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        assertThat(run.stdout()).contains("# fail 0").contains("# pass 2");
    }
}
