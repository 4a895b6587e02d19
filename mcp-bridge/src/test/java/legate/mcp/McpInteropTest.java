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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code legate mcp} driven by the official MCP TypeScript client (@modelcontextprotocol/sdk, pinned
 * in interop/): interop/mcp-client-check.mjs names the rule each of its checks protects. Two
 * endpoints run in process: one publishing only Revisor (so {@code agent} may be left out), one
 * publishing Revisor and two scripted agents, a quiet one and one whose stream is cut short, with
 * short heartbeat and silence timers.
 */
class McpInteropTest {
    private static final BearerToken TOKEN = BearerToken.mint(new SecureRandom());

    private static AgentServer revisor;
    private static FakeAgent quiet;
    private static FakeAgent cut;
    private static McpEndpoint single;
    private static McpEndpoint multi;

    @BeforeAll
    static void start() throws Exception {
        revisor = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"),
                new RevisorExecutor(Duration.ofMillis(50)));
        URI revisorUrl = URI.create("http://127.0.0.1:" + revisor.start() + "/");
        quiet = new FakeAgent("quiet", FakeAgent.Script.QUIET);
        quiet.start();
        cut = new FakeAgent("cut", FakeAgent.Script.CUT);
        cut.start();

        single = McpEndpoint.create(McpConfig.loopback(0, TOKEN, Map.of(McpConfig.DEFAULT_ALIAS, revisorUrl)));
        single.start();
        Map<String, URI> several = new LinkedHashMap<>();
        several.put("revisor", revisorUrl);
        several.put("quiet", URI.create(quiet.url()));
        several.put("cut", URI.create(cut.url()));
        multi = McpEndpoint.create(McpConfig.loopback(0, TOKEN, several)
                .withTimers(Duration.ofMillis(200), Duration.ofMillis(1500)));
        multi.start();
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {single, multi, quiet, cut, revisor}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @Test
    void theOfficialTypeScriptClientSeesEveryRuleItChecksHeld() throws Exception {
        NodeScript run = NodeScript.run("mcp-client-check.mjs",
                Map.of("MCP_URL", single.url(), "MCP_MULTI_URL", multi.url(), "MCP_TOKEN", TOKEN.value()), 120);

        assertThat(run.failures()).as("failed checks; output:\n%s", run.output()).isEmpty();
        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        assertThat(run.output()).contains("# fail 0").contains("# pass 8");
    }
}
