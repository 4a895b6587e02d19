package legate.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import legate.a2a.client.Binding;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.observe.Telemetry;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.mcp.guard.BearerToken;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import legate.testsupport.OtlpReceiver;
import legate.testsupport.OtlpReceiver.ReceivedSpan;
import legate.wire.trace.Tracing;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One trace across agents: an a2a_ask of {@code legate mcp} and the turn it starts at the agent
 * are exported, by OTLP http/protobuf, to a receiver on 127.0.0.1 as one trace, the agent's request
 * span a child of the tool call's span (the {@code traceparent} the A2A client wrote), its turn a
 * child of that request.
 */
class TraceAcrossAgentsTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private static final BearerToken TOKEN = BearerToken.mint(new SecureRandom());

    private static Tracing tracing(OtlpReceiver receiver, String service) {
        return Tracing.fromEnvironment(service, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(),
                "OTEL_BSP_SCHEDULE_DELAY", "50"));
    }

    // Over either binding: the REST binding's request span is the same edge's (README "The REST binding").
    @ParameterizedTest
    @ValueSource(strings = {"JSONRPC", "REST"})
    void anAskOfLegateMcpAndTheAgentsTurnAreOneTrace(String binding) throws Exception {
        OtlpReceiver receiver = cleanup.register(new OtlpReceiver());
        Tracing agentTracing = cleanup.register(tracing(receiver, "legate-agent"));
        Tracing mcpTracing = cleanup.register(tracing(receiver, "legate-mcp"));
        AgentServer revisor = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"), new RevisorExecutor(Duration.ZERO),
                new InMemoryTaskStore(), Clock.systemUTC(), new Telemetry(Telemetry.ON_A2A_PORT, null, agentTracing));
        int revisorPort = cleanup.start("Revisor", revisor, AgentServer::start, AgentServer::openStreams);
        McpEndpoint endpoint = cleanup.register(McpEndpoint.create(McpConfig.loopback(0, TOKEN,
                Map.of("revisor", URI.create("http://127.0.0.1:" + revisorPort + "/")))
                .withBindings(List.of(Binding.named(binding))), Clock.systemUTC(),
                new Telemetry(Telemetry.ON_A2A_PORT, null, mcpTracing)));
        endpoint.start();

        try (McpCaller caller = new McpCaller(endpoint, TOKEN)) {
            List<JsonNode> messages = caller.call(caller.initialize(), "a2a_ask", "{\"text\":\"Count these words.\"}");
            assertThat(messages.getLast().path("result").path("isError").asBoolean()).isFalse();
        }
        mcpTracing.flush(Duration.ofSeconds(10));
        agentTracing.flush(Duration.ofSeconds(10));

        ReceivedSpan ask = receiver.await(s -> s.service().equals("legate-mcp") && s.name().equals("mcp tools/call a2a_ask"),
                Duration.ofSeconds(10));
        ReceivedSpan request = receiver.await(s -> s.service().equals("legate-agent")
                && s.name().equals("SendStreamingMessage"), Duration.ofSeconds(10));
        ReceivedSpan turn = receiver.await(s -> s.service().equals("legate-agent") && s.name().equals("task turn"),
                Duration.ofSeconds(10));
        assertThat(request.traceId()).isEqualTo(ask.traceId());
        assertThat(request.parentSpanId()).as("the traceparent legate mcp sent").isEqualTo(ask.spanId());
        assertThat(turn.traceId()).isEqualTo(ask.traceId());
        assertThat(turn.parentSpanId()).isEqualTo(request.spanId());
    }
}
