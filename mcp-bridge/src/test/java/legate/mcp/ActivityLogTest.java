package legate.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.observe.Telemetry;
import legate.acp.log.BridgeLogs;
import legate.mcp.guard.BearerToken;
import legate.mcp.tool.ToolCalls;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legate mcp}'s activity in {@code mcp.jsonl}, in the record format of the bridge's
 * work.jsonl ({@code ts}, {@code event}, fields): it listened, and each a2a_ask says whether the
 * caller asked for progress.
 */
class ActivityLogTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private static final BearerToken TOKEN = BearerToken.mint(new SecureRandom());

    @Test
    void listenAndEachAskWithOrWithoutAProgressTokenAreLogged(@TempDir Path dir) throws Exception {
        AgentServer revisor = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"), new RevisorExecutor(Duration.ZERO));
        int revisorPort = cleanup.start("Revisor", revisor, AgentServer::start, AgentServer::openStreams);
        McpEndpoint endpoint = cleanup.register(McpEndpoint.create(McpConfig.loopback(0, TOKEN,
                Map.of("revisor", URI.create("http://127.0.0.1:" + revisorPort + "/"))), Clock.systemUTC(),
                Telemetry.DEFAULT, BridgeLogs.single(dir, ToolCalls.LOG, 1 << 20, 2, Clock.systemUTC(), System.err)));
        endpoint.start();
        String url = endpoint.url();
        try (McpCaller caller = new McpCaller(endpoint, TOKEN)) {
            String session = caller.initialize();
            caller.call(session, "a2a_ask", "{\"text\":\"One two.\"}");
            HttpResponse<String> plain = caller.http().send(caller.post(session, "{\"jsonrpc\":\"2.0\",\"id\":3,"
                    + "\"method\":\"tools/call\",\"params\":{\"name\":\"a2a_ask\",\"arguments\":{\"text\":\"Three.\"}}}"),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(plain.body()).contains("\"result\"");
        }
        endpoint.close();

        List<JsonNode> records = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve(ToolCalls.LOG))) {
            records.add(WireJson.mapper().readTree(line));
        }
        assertThat(records).extracting(r -> r.path("event").asText()).containsExactly("listen", "ask", "ask");
        assertThat(records.getFirst().fieldNames().next()).isEqualTo("ts");
        assertThat(records.get(0).path("url").asText()).isEqualTo(url);
        assertThat(records.get(1).path("progressToken").asBoolean()).isTrue();
        assertThat(records.get(2).path("progressToken").asBoolean()).isFalse();
        assertThat(records.get(2).path("agent").asText()).isEqualTo("revisor");
    }
}
