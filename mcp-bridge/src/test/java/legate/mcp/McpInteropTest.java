package legate.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.mcp.guard.BearerToken;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.NodeScript;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code legate mcp} driven by the official MCP TypeScript client (@modelcontextprotocol/sdk, pinned
 * in interop/): interop/mcp-client-check.mjs names the rule each of its checks protects. Two
 * endpoints run in process: one publishing only Revisor (so {@code agent} may be left out), one
 * publishing Revisor and two scripted agents, a quiet one and one whose stream is cut short, with
 * short heartbeat and silence timers.
 */
class McpInteropTest {
    private static final BearerToken TOKEN = BearerToken.mint(new SecureRandom());

    // Closes the endpoints, the agents and Revisor after the class, last started first.
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static McpEndpoint single;
    private static McpEndpoint multi;

    @BeforeAll
    static void start() throws Exception {
        AgentServer revisor = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"),
                new RevisorExecutor(Duration.ofMillis(50)));
        // Every stream an endpoint opens to Revisor for a tool call must be over when the checks are.
        URI revisorUrl = URI.create("http://127.0.0.1:" + cleanup.start("Revisor", revisor, AgentServer::start, AgentServer::openStreams) + "/");
        FakeAgent quiet = cleanup.register(new FakeAgent("quiet", FakeAgent.Script.QUIET));
        quiet.start();
        FakeAgent cut = cleanup.register(new FakeAgent("cut", FakeAgent.Script.CUT));
        cut.start();

        single = cleanup.register(McpEndpoint.create(McpConfig.loopback(0, TOKEN, Map.of(McpConfig.DEFAULT_ALIAS, revisorUrl))));
        single.start();
        Map<String, URI> several = new LinkedHashMap<>();
        several.put("revisor", revisorUrl);
        several.put("quiet", URI.create(quiet.url()));
        several.put("cut", URI.create(cut.url()));
        multi = cleanup.register(McpEndpoint.create(McpConfig.loopback(0, TOKEN, several)
                .withTimers(Duration.ofMillis(200), Duration.ofMillis(1500))));
        multi.start();
    }

    @Test
    void theOfficialTypeScriptClientSeesEveryRuleItChecksHeld() throws Exception {
        ChildRun run = NodeScript.test("mcp-client-check.mjs")
                .env(Map.of("MCP_URL", single.url(), "MCP_MULTI_URL", multi.url(), "MCP_TOKEN", TOKEN.value()))
                .run(Duration.ofSeconds(120));

        assertThat(NodeScript.failedChecks(run)).as("failed checks; output:\n%s", run.output()).isEmpty();
        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        assertThat(run.stdout()).contains("# fail 0").contains("# pass 8");
    }
}
