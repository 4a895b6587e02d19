package legate.a2a.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Timestamp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.TaskEvent;
import legate.testsupport.Cleanup;
import legate.testsupport.ManualClock;
import legate.wire.json.WireJson;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Retention (TASK_RETENTION, README "Tasks that last"): a terminal task is deleted once its last
 * status change is older than the retention; running and waiting tasks never are. Time is a
 * {@link ManualClock}, so days pass without waiting.
 */
class RetentionSweepTest {
    private static final Instant T0 = Instant.parse("2026-12-01T00:00:00Z");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private final InMemoryTaskStore store = new InMemoryTaskStore();
    private final Map<String, Long> seqs = new HashMap<>();

    private void save(String id, TaskState state, Instant at) {
        Task t = Task.newBuilder().setId(id).setContextId("c").setStatus(TaskStatus.newBuilder().setState(state)
                .setTimestamp(Timestamp.newBuilder().setSeconds(at.getEpochSecond()))).build();
        store.append(new TaskEvent(seqs.merge(id, 1L, Long::sum), StreamResponse.newBuilder().setTask(t).build(), t), true);
    }

    @Test
    void theSweepRunsEveryTenthOfTheRetentionAndAtLeastEveryMinute() {
        assertThat(RetentionSweep.interval(Duration.ofDays(7))).isEqualTo(Duration.ofMinutes(1));
        assertThat(RetentionSweep.interval(Duration.ofMinutes(10))).isEqualTo(Duration.ofMinutes(1));
        assertThat(RetentionSweep.interval(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(3));
        assertThat(RetentionSweep.interval(Duration.ofMillis(5))).isEqualTo(Duration.ofMillis(1));
    }

    @Test
    void aSweepDeletesTheTerminalTasksTheRetentionNoLongerCovers() {
        ManualClock clock = new ManualClock(T0);
        save("done-first", TaskState.TASK_STATE_COMPLETED, T0);
        save("failed-later", TaskState.TASK_STATE_FAILED, T0.plus(Duration.ofDays(2)));
        save("still-running", TaskState.TASK_STATE_WORKING, T0);
        save("asking", TaskState.TASK_STATE_INPUT_REQUIRED, T0);
        RetentionSweep sweep = new RetentionSweep(store, clock, Duration.ofDays(7), new ScheduledExecutorScheduler());

        clock.advance(Duration.ofDays(7).minusSeconds(1));
        assertThat(sweep.sweep()).isZero();
        clock.advance(Duration.ofSeconds(2));
        assertThat(sweep.sweep()).isEqualTo(1);
        assertThat(store.get("done-first")).isEmpty();
        assertThat(store.get("failed-later")).isPresent();
        clock.advance(Duration.ofDays(2));
        assertThat(sweep.sweep()).isEqualTo(1);
        assertThat(store.get("failed-later")).isEmpty();
        clock.advance(Duration.ofDays(365));
        assertThat(sweep.sweep()).isZero();
        assertThat(store.get("still-running")).isPresent();
        assertThat(store.get("asking")).isPresent();
        sweep.close();
        save("done-after-close", TaskState.TASK_STATE_COMPLETED, T0);
        assertThat(sweep.sweep()).as("a closed sweep touches the store no more").isZero();
    }

    @Test
    void theServerSweepsOnItsOwnScheduler() throws Exception {
        ManualClock clock = new ManualClock(T0);
        AgentServer server = AgentServer.create(ServerConfig.loopback(0).withTaskRetention(Duration.ofSeconds(1)),
                p -> LegateCards.jsonRpc("t", "d", "http://127.0.0.1:" + p + "/").build(),
                (ctx, events) -> {
                    events.task(ctx.initialTask());
                    events.status(TaskState.TASK_STATE_COMPLETED, null);
                }, store, clock);
        int port = cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
        String id = call(port, "SendMessage", "{\"message\":{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[]}}")
                .get("result").get("task").get("id").asText();
        assertThat(call(port, "GetTask", "{\"id\":\"" + id + "\"}").has("result")).isTrue();
        // A second after the task finished, the next sweep (every 100 ms here) deletes it.
        clock.advance(Duration.ofSeconds(2));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        JsonNode answer = call(port, "GetTask", "{\"id\":\"" + id + "\"}");
        while (answer.has("result") && System.nanoTime() < deadline) {
            answer = call(port, "GetTask", "{\"id\":\"" + id + "\"}");
        }
        assertThat(answer.get("error").get("code").asInt()).isEqualTo(-32001);
    }

    private static JsonNode call(int port, String method, String params) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method
                        + "\",\"params\":" + params + "}"))
                .timeout(Duration.ofSeconds(10)).build();
        return WireJson.mapper().readTree(HTTP.send(req, HttpResponse.BodyHandlers.ofString()).body());
    }
}
