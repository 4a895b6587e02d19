package legate.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import legate.a2a.client.Binding;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ProtocolBinding;
import legate.a2a.server.ServerConfig;
import legate.mcp.guard.BearerToken;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code legate mcp} over the HTTP+JSON binding (README "Protocol bindings"): its tools dial REST
 * when the agent's card lists it first (A2A §8.3.2), and when {@code A2A_BINDING} forces it on a
 * card that prefers JSON-RPC. The agent's own counts say which binding carried the turn.
 */
class McpOverRestTest {
    private static final BearerToken TOKEN = BearerToken.mint(new SecureRandom());
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private AgentServer revisor(List<ProtocolBinding> order) throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0).withBindings(order),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"), new RevisorExecutor(Duration.ZERO));
        cleanup.start("Revisor", server, AgentServer::start, AgentServer::openStreams);
        return server;
    }

    private JsonNode ask(AgentServer agent, McpConfig config) throws Exception {
        McpEndpoint endpoint = cleanup.register(McpEndpoint.create(config));
        endpoint.start();
        try (McpCaller caller = new McpCaller(endpoint, TOKEN)) {
            List<JsonNode> messages = caller.call(caller.initialize(), "a2a_ask", "{\"text\":\"One two. Three!\"}");
            return messages.getLast();
        }
    }

    private static Map<String, URI> agents(AgentServer agent) {
        return Map.of(McpConfig.DEFAULT_ALIAS, URI.create("http://127.0.0.1:" + agent.port() + "/"));
    }

    @Test
    void aCardThatListsRestFirstIsAskedOverRest() throws Exception {
        AgentServer agent = revisor(List.of(ProtocolBinding.HTTP_JSON, ProtocolBinding.JSONRPC));

        JsonNode result = ask(agent, McpConfig.loopback(0, TOKEN, agents(agent)));

        assertThat(result.toString()).contains("completed").contains("Words: 3");
        assertThat(agent.metrics().scrape()).contains("binding=\"rest\",method=\"SendStreamingMessage\",outcome=\"ok\"")
                .doesNotContain("binding=\"jsonrpc\",method=\"SendStreamingMessage\"");
    }

    @Test
    void aBindingForcedByA2aBindingIsUsedOnACardThatPrefersJsonRpc() throws Exception {
        AgentServer agent = revisor(List.of(ProtocolBinding.JSONRPC, ProtocolBinding.HTTP_JSON));

        JsonNode result = ask(agent, McpConfig.loopback(0, TOKEN, agents(agent)).withBindings(List.of(Binding.named("REST"))));

        assertThat(result.toString()).contains("completed").contains("Words: 3");
        assertThat(agent.metrics().scrape()).contains("binding=\"rest\",method=\"SendStreamingMessage\",outcome=\"ok\"")
                .doesNotContain("binding=\"jsonrpc\",method=\"SendStreamingMessage\"");
    }
}
