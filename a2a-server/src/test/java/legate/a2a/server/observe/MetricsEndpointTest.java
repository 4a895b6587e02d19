package legate.a2a.server.observe;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.testsupport.Cleanup;
import legate.wire.trace.Tracing;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /metrics} scraped after a known workload, over real sockets: every count matches the
 * requests sent, and the access rule (METRICS_TOKEN, METRICS_PORT, loopback only without a token)
 * holds.
 */
class MetricsEndpointTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    final HttpClient http = HttpClient.newHttpClient();

    private AgentServer start(Telemetry telemetry) throws Exception {
        AgentServer server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", 1 << 20, Duration.ofSeconds(2)),
                p -> AgentCard.newBuilder().setName("counted").setDescription("d").setVersion("1")
                        .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + p + "/")
                                .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                        .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true)).build(),
                (ctx, events) -> {
                    events.task(ctx.initialTask());
                    events.status(TaskState.TASK_STATE_WORKING, events.agentText("working"));
                    events.status(TaskState.TASK_STATE_COMPLETED, events.agentText("done"));
                },
                new InMemoryTaskStore(), Clock.systemUTC(), telemetry);
        cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
        return server;
    }

    private HttpResponse<String> rpc(int port, String method, String params) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> scrape(int port, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String message() {
        return "{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}}";
    }

    @Test
    void aKnownWorkloadIsCountedExactlyByMethodOutcomeAndState() throws Exception {
        AgentServer server = start(Telemetry.DEFAULT);
        int port = server.port();
        for (int i = 0; i < 3; i++) {
            assertThat(rpc(port, "SendMessage", message()).body()).contains("TASK_STATE_COMPLETED");
        }
        for (int i = 0; i < 2; i++) {
            assertThat(rpc(port, "GetTask", "{\"id\":\"no-such-task\"}").body()).contains("-32001");
        }
        assertThat(rpc(port, "NoSuchMethod", "{}").body()).contains("-32601");

        // A blocking SendMessage is answered at its terminal event; its executor returns (and the
        // turn is counted as ended) just after. Scrapes until the third turn is in, 10 s at most.
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        HttpResponse<String> scraped;
        PrometheusText m;
        do {
            scraped = scrape(port, null);
            m = new PrometheusText(scraped.body());
        } while (!Double.valueOf(3.0).equals(m.value("legate_a2a_turns_seconds_count", "ended", "completed"))
                && System.nanoTime() < deadline);
        assertThat(scraped.statusCode()).isEqualTo(200);
        assertThat(scraped.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain; version=0.0.4");
        assertThat(m.value("legate_a2a_requests_seconds_count",
                "binding", "jsonrpc", "method", "SendMessage", "outcome", "ok")).isEqualTo(3.0);
        assertThat(m.value("legate_a2a_requests_seconds_count",
                "binding", "jsonrpc", "method", "GetTask", "outcome", "-32001")).isEqualTo(2.0);
        assertThat(m.value("legate_a2a_requests_seconds_count",
                "binding", "jsonrpc", "method", "unknown", "outcome", "-32601")).isEqualTo(1.0);
        // Every SendMessage answered within the histogram's last bucket.
        assertThat(m.value("legate_a2a_requests_seconds_bucket",
                "binding", "jsonrpc", "method", "SendMessage", "outcome", "ok", "le", "300.0")).isEqualTo(3.0);
        assertThat(m.value("legate_a2a_turns_seconds_count", "ended", "completed")).isEqualTo(3.0);
        assertThat(m.value("legate_a2a_tasks_running", "state", "working")).isEqualTo(0.0);
        assertThat(m.value("legate_a2a_tasks_running", "state", "completed")).isEqualTo(0.0);
        assertThat(m.value("legate_a2a_open_streams", "binding", "jsonrpc")).isEqualTo(0.0);
        // Three events per task (task, working, completed), the last durable; two reads per GetTask at most.
        assertThat(m.value("legate_store_operations_seconds_count", "op", "append")).isEqualTo(6.0);
        assertThat(m.value("legate_store_operations_seconds_count", "op", "commit")).isEqualTo(3.0);
        assertThat(m.value("legate_store_operations_seconds_count", "op", "read")).isPositive();
        assertThat(m.value("legate_push_deliveries_total", "outcome", "delivered")).isEqualTo(0.0);
    }

    @Test
    void aRunningTurnIsCountedInItsStateUntilItEnds() throws Exception {
        // The gauge is fed by the turns themselves, not by a store scan: a stream held open shows it.
        AgentServer server = start(Telemetry.DEFAULT);
        server.metrics().moved(null, TaskState.TASK_STATE_WORKING);
        PrometheusText m = new PrometheusText(scrape(server.port(), null).body());
        assertThat(m.value("legate_a2a_tasks_running", "state", "working")).isEqualTo(1.0);
        server.metrics().moved(TaskState.TASK_STATE_WORKING, null);
        m = new PrometheusText(scrape(server.port(), null).body());
        assertThat(m.value("legate_a2a_tasks_running", "state", "working")).isEqualTo(0.0);
    }

    @Test
    void metricsTokenIsRequiredWhenSetAndComparedWhole() throws Exception {
        AgentServer server = start(new Telemetry(Telemetry.ON_A2A_PORT, "s3cret-token", Tracing.OFF));
        HttpResponse<String> none = scrape(server.port(), null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Bearer");
        assertThat(scrape(server.port(), "s3cret-toke").statusCode()).isEqualTo(401);
        assertThat(scrape(server.port(), "s3cret-token").statusCode()).isEqualTo(200);
    }

    @Test
    void metricsPortServesMetricsOnItsOwnLoopbackListenerAndTheA2aPortNoLonger() throws Exception {
        AgentServer server = start(new Telemetry(0, null, Tracing.OFF));
        assertThat(server.metricsPort()).isNotEqualTo(server.port());
        assertThat(scrape(server.metricsPort(), null).body()).contains("legate_a2a_open_streams");
        assertThat(scrape(server.port(), null).statusCode()).isEqualTo(404);
        // And the separate listener answers nothing else.
        assertThat(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.metricsPort()
                + "/.well-known/agent-card.json")).build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                .isEqualTo(404);
    }

    @Test
    void withoutATokenAWiderBindIsRefusedWithTheReason() {
        // Secure by default: the rule itself, since tests bind loopback only.
        MetricsAccess access = MetricsAccess.of(null, false, "0.0.0.0:8080");
        assertThat(access).isInstanceOf(MetricsAccess.Refused.class);
        assertThat(((MetricsAccess.Refused) access).why()).contains("0.0.0.0:8080", "METRICS_TOKEN", "METRICS_PORT");
        assertThat(MetricsAccess.of("t", false, "0.0.0.0:8080")).isInstanceOf(MetricsAccess.Token.class);
        assertThat(MetricsAccess.of(" ", true, "127.0.0.1:8080")).isInstanceOf(MetricsAccess.Open.class);
    }
}
