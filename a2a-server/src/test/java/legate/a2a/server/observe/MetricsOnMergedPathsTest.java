package legate.a2a.server.observe;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import legate.a2a.server.AgentServer;
import legate.a2a.server.EventSink;
import legate.a2a.server.Reply;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.BearerTokens;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.TokensFile;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.InstanceGroup;
import legate.a2a.server.task.UnsettledTasks;
import legate.testsupport.Cleanup;
import legate.testsupport.ScriptedPeer;
import legate.wire.json.WireJson;
import legate.wire.trace.Tracing;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * /metrics where the other features meet it: a caller refused by the authentication edge is counted
 * (outcome -32000, method "none": its body was never read); with an A2A scheme configured /metrics
 * takes the A2A credentials as well as METRICS_TOKEN; a turn handed over after a question is
 * counted as two turns, the first ended at its question; a request another instance answered is
 * counted as forwarded, not as an error.
 */
class MetricsOnMergedPathsTest {
    private static final String ALICE = "alice-token-0123456789";
    private static final String METRICS = "metrics-token-9876543210";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    final HttpClient http = HttpClient.newHttpClient();

    private AgentServer start() throws Exception {
        Path tokens = dir.resolve("tokens");
        Files.writeString(tokens, "alice:" + ALICE + "\n");
        ServerSecurity security = new ServerSecurity(
                new CallerAuthentication(List.of(new BearerTokens(new TokensFile(tokens)))), null, 0);
        AgentServer server = AgentServer.create(
                new ServerConfig("127.0.0.1", 0, "/", 1 << 20, Duration.ofSeconds(2)).withSecurity(security),
                p -> AgentCard.newBuilder().setName("counted").setDescription("d").setVersion("1")
                        .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + p + "/")
                                .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                        .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true)).build(),
                (ctx, events) -> {
                    events.task(ctx.initialTask());
                    Optional<Reply> reply = events.awaitReply(events.agentText("which one?"), Duration.ofSeconds(20));
                    if (reply.isPresent()) {
                        EventSink sink = reply.get().events();
                        sink.task(reply.get().context().initialTask());
                        sink.status(TaskState.TASK_STATE_COMPLETED, sink.agentText("done"));
                    }
                },
                new InMemoryTaskStore(), Clock.systemUTC(), new Telemetry(Telemetry.ON_A2A_PORT, METRICS, Tracing.OFF));
        cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
        return server;
    }

    private HttpResponse<String> rpc(int port, String token, String method, String params) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> scrape(int port, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String message(String taskId) {
        return "{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]"
                + (taskId == null ? "" : ",\"taskId\":\"" + taskId + "\"") + "}}";
    }

    /** A group in which every conversation runs on {@code runner}. */
    private record AllElsewhere(URI runner) implements InstanceGroup {
        @Override
        public void join(int boundPort, UnsettledTasks unsettled) {
        }

        @Override
        public Optional<URI> runnerElsewhere(String contextId) {
            return Optional.of(runner);
        }

        @Override
        public Watch watch(String taskId, Runnable appended) {
            return () -> {
            };
        }

        @Override
        public void close() {
        }
    }

    @Test
    void aRequestAnsweredByAnotherInstanceIsCountedAsForwarded() throws Exception {
        ScriptedPeer runner = cleanup.register(new ScriptedPeer((request, out, self) -> ScriptedPeer.respond(out, 200,
                "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"message\":{\"messageId\":\"r\","
                        + "\"role\":\"ROLE_AGENT\",\"parts\":[{\"text\":\"from there\"}]}}}")));
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                port -> LegateCards.jsonRpc("here", "one instance", "http://127.0.0.1:" + port + "/").build(),
                (ctx, events) -> {
                    throw new AssertionError("a conversation that runs elsewhere reached this executor");
                }, new InMemoryTaskStore(), Clock.systemUTC(), Telemetry.DEFAULT, new ServerMetrics(),
                new AllElsewhere(runner.url()));
        int port = cleanup.start("instance", server, AgentServer::start, AgentServer::openStreams);

        String body = rpc(port, null, "SendMessage", "{\"message\":{\"messageId\":\"m1\",\"role\":\"ROLE_USER\","
                + "\"contextId\":\"ctx-there\",\"parts\":[{\"text\":\"hi\"}]}}").body();
        assertThat(body).contains("from there");

        PrometheusText m = new PrometheusText(scrape(port, null).body());
        assertThat(m.value("legate_a2a_requests_seconds_count",
                "binding", "jsonrpc", "method", "SendMessage", "outcome", "forwarded")).isEqualTo(1.0);
        assertThat(m.value("legate_a2a_requests_seconds_count",
                "binding", "jsonrpc", "method", "SendMessage", "outcome", "-32603")).isNull();
    }

    @Test
    void withAnA2aSchemeMetricsTakesTheA2aCredentialAndMetricsTokenAndNothingElse() throws Exception {
        int port = start().port();
        assertThat(scrape(port, ALICE).statusCode()).isEqualTo(200);
        assertThat(scrape(port, METRICS).statusCode()).isEqualTo(200);
        assertThat(scrape(port, null).statusCode()).isEqualTo(401);
        assertThat(scrape(port, ALICE + "x").statusCode()).isEqualTo(401);
    }

    @Test
    void aCallerRefusedAtTheAuthenticationEdgeIsCounted() throws Exception {
        int port = start().port();
        assertThat(rpc(port, null, "SendMessage", message(null)).statusCode()).isEqualTo(401);
        assertThat(rpc(port, "wrong", "GetTask", "{\"id\":\"t\"}").statusCode()).isEqualTo(401);
        PrometheusText m = new PrometheusText(scrape(port, METRICS).body());
        assertThat(m.value("legate_a2a_requests_seconds_count",
                "binding", "jsonrpc", "method", "none", "outcome", "-32000")).isEqualTo(2.0);
    }

    @Test
    void aTurnHandedOverAfterAQuestionIsCountedAsTwoTurns() throws Exception {
        int port = start().port();
        JsonNode asked = WireJson.mapper().readTree(rpc(port, ALICE, "SendMessage", message(null)).body());
        assertThat(asked.at("/result/task/status/state").asText()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
        String taskId = asked.at("/result/task/id").asText();
        JsonNode done = WireJson.mapper().readTree(rpc(port, ALICE, "SendMessage", message(taskId)).body());
        assertThat(done.at("/result/task/status/state").asText()).as(done.toString()).isEqualTo("TASK_STATE_COMPLETED");

        // The execution ends just after its answer: scrapes until the second turn is in, 10 s at most.
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        PrometheusText m;
        do {
            m = new PrometheusText(scrape(port, METRICS).body());
        } while (!Double.valueOf(1.0).equals(m.value("legate_a2a_turns_seconds_count", "ended", "completed"))
                && System.nanoTime() < deadline);
        assertThat(m.value("legate_a2a_turns_seconds_count", "ended", "input_required")).isEqualTo(1.0);
        assertThat(m.value("legate_a2a_turns_seconds_count", "ended", "completed")).isEqualTo(1.0);
        assertThat(m.value("legate_a2a_tasks_running", "state", "input_required")).isEqualTo(0.0);
        assertThat(m.value("legate_a2a_tasks_running", "state", "working")).isEqualTo(0.0);
    }
}
