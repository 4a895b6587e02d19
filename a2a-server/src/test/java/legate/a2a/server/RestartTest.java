package legate.a2a.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.TaskStore;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a restart does to the tasks it finds (README "Tasks that last"): a run that was SUBMITTED or
 * WORKING is ended FAILED, saying it was interrupted; an INPUT_REQUIRED task is continued by a
 * reply; a finished one is read back as it was. Two servers in one JVM share one in-memory store,
 * the first stopped in the middle of a turn: the store is all the second one knows.
 */
class RestartTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final CountDownLatch holding = new CountDownLatch(1);

    /** "hold": WORKING, then waits until the server stops. Empty: asks for text. Otherwise: COMPLETED. */
    final class Holder implements AgentExecutor {
        @Override
        public void execute(RequestContext ctx, EventSink events) throws Exception {
            events.task(ctx.initialTask());
            if (ctx.text().isEmpty()) {
                events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText("text please"));
                return;
            }
            events.status(TaskState.TASK_STATE_WORKING, events.agentText("on it"));
            if (ctx.text().equals("hold")) {
                holding.countDown();
                new CountDownLatch(1).await(30, TimeUnit.SECONDS);
            }
            events.status(TaskState.TASK_STATE_COMPLETED, events.agentText("done: " + ctx.text()));
        }
    }

    private AgentServer server(TaskStore store) {
        return AgentServer.create(ServerConfig.loopback(0),
                p -> LegateCards.jsonRpc("holder", "d", "http://127.0.0.1:" + p + "/").build(), new Holder(), store,
                Clock.systemUTC());
    }

    private static JsonNode call(int port, String method, String params) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method
                        + "\",\"params\":" + params + "}"))
                .timeout(Duration.ofSeconds(10)).build();
        return WireJson.mapper().readTree(HTTP.send(req, HttpResponse.BodyHandlers.ofString()).body());
    }

    private static String send(String text, String taskId, boolean returnImmediately) {
        return "{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\""
                + (taskId == null ? "" : ",\"taskId\":\"" + taskId + "\"") + ",\"parts\":["
                + (text.isEmpty() ? "" : "{\"text\":\"" + text + "\"}") + "]}"
                + (returnImmediately ? ",\"configuration\":{\"returnImmediately\":true}" : "") + "}";
    }

    private static JsonNode task(int port, String taskId) throws Exception {
        return call(port, "GetTask", "{\"id\":\"" + taskId + "\"}").get("result");
    }

    private static String state(JsonNode task) {
        return task.get("status").get("state").asText();
    }

    @Test
    void aRestartFailsTheRunsItInterruptedAndKeepsTheRest() throws Exception {
        TaskStore store = new InMemoryTaskStore();
        AgentServer first = cleanup.register(server(store));
        int port = first.start();
        String done = call(port, "SendMessage", send("finish", null, false)).get("result").get("task").get("id").asText();
        String parked = call(port, "SendMessage", send("", null, false)).get("result").get("task").get("id").asText();
        String held = call(port, "SendMessage", send("hold", null, true)).get("result").get("task").get("id").asText();
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        first.stop();

        AgentServer second = server(store);
        int port2 = cleanup.start("the restarted agent", second, AgentServer::start, AgentServer::openStreams);

        JsonNode interrupted = task(port2, held);
        assertThat(state(interrupted)).isEqualTo("TASK_STATE_FAILED");
        assertThat(interrupted.get("status").get("message").get("parts").get(0).get("text").asText())
                .contains("restarted").contains("Send the request again");
        assertThat(state(task(port2, done))).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(state(task(port2, parked))).isEqualTo("TASK_STATE_INPUT_REQUIRED");

        // The reply after the restart continues the parked task from what the store kept.
        JsonNode continued = call(port2, "SendMessage", send("now some text", parked, false)).get("result").get("task");
        assertThat(continued.get("id").asText()).isEqualTo(parked);
        assertThat(state(continued)).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(continued.get("history").toString()).contains("text please").contains("done: now some text");
    }

    @Test
    void theFailureIsTheNextEventOfTheTasksLogSoAResumedStreamEndsWithIt() throws Exception {
        TaskStore store = new InMemoryTaskStore();
        AgentServer first = cleanup.register(server(store));
        int port = first.start();
        String held = call(port, "SendMessage", send("hold", null, true)).get("result").get("task").get("id").asText();
        assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
        first.stop();
        int port2 = cleanup.start("the restarted agent", server(store), AgentServer::start, AgentServer::openStreams);

        HttpRequest resume = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port2 + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0").header("Last-Event-ID", "2")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SubscribeToTask\","
                        + "\"params\":{\"id\":\"" + held + "\"}}"))
                .timeout(Duration.ofSeconds(10)).build();
        String body = HTTP.send(resume, HttpResponse.BodyHandlers.ofString()).body();
        // A caller cut off by the crash, after the WORKING frame (id 2), learns how its task ended.
        assertThat(body).startsWith("id: 3\ndata: ").contains("TASK_STATE_FAILED");
        assertThat(body.split("\n\n")).hasSize(1);
    }
}
