package legate.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import legate.a2a.model.NestingLimit;
import legate.a2a.model.ProtoJson;
import legate.wire.json.WireJson;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.Task;

/**
 * The property every task store must keep for the nesting limit (issue 30, defect 1): random JSON
 * values at and past {@link NestingLimit#MAX_DEPTH}, sent as a message's metadata and as a data
 * part's data in SendMessage over a real JSON-RPC endpoint, are either refused at input (-32602
 * naming the limit: past it) or stored and read back equal by GetTask (at it or below). The agent
 * behind the endpoint must echo the message as its COMPLETED status message, so each value is also
 * stored in the deepest place a task holds one (a status update's message, five messages down).
 *
 * <p>The store module's test then reads the accepted tasks back from the store itself, after a
 * restart, which is where an undecodable task used to break everything.
 */
public final class NestingProperty {
    /** The cases one run sends: bounded, so a store's suite stays quick. */
    public static final int CASES = 24;

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** A value the endpoint accepted: the task it is in, and what was sent. */
    public record Accepted(String taskId, Struct metadata, Value data) {
        /** Whether {@code task} holds the values as sent: in the caller's message and in the echo. */
        public void assertHeldBy(Task task) {
            Message sent = task.getHistory(0);
            assertThat(sent.getMetadata()).as("metadata of task %s", taskId).isEqualTo(metadata);
            assertThat(sent.getParts(1).getData()).as("data of task %s", taskId).isEqualTo(data);
            Message echo = task.getStatus().getMessage();
            assertThat(echo.getMetadata()).as("echoed metadata of task %s", taskId).isEqualTo(metadata);
            assertThat(echo.getParts(1).getData()).as("echoed data of task %s", taskId).isEqualTo(data);
        }
    }

    private NestingProperty() {
    }

    /**
     * Runs the property against the v1.0 JSON-RPC endpoint at {@code endpoint} and returns what was
     * accepted. Depths run from 1 to three past the limit; the limit and one past it come every run.
     */
    public static List<Accepted> check(URI endpoint, long seed) throws IOException, InterruptedException {
        Random random = new Random(seed);
        NestedJson json = new NestedJson(random);
        List<Accepted> accepted = new ArrayList<>();
        int max = NestingLimit.MAX_DEPTH;
        for (int i = 0; i < CASES; i++) {
            int depth = switch (i) {
                case 0 -> max;
                case 1 -> max + 1;
                default -> 1 + random.nextInt(max + 3);
            };
            // One of the two carries the depth under test, the other is no deeper.
            boolean inMetadata = random.nextBoolean();
            Struct metadata = json.object(inMetadata ? depth : 1 + random.nextInt(depth));
            Value data = json.value(inMetadata ? random.nextInt(depth + 1) : depth);
            JsonNode reply = call(endpoint, "SendMessage", "{\"message\":" + ProtoJson.print(message(metadata, data)) + "}");
            String what = "case " + i + " of seed " + seed + " (depth " + depth + ")";
            if (depth > max) {
                assertThat(reply.path("error").path("code").asInt()).as(what).isEqualTo(-32602);
                assertThat(reply.path("error").path("message").asText()).as(what).contains("at most " + max + " levels");
                continue;
            }
            assertThat(reply.path("error").isMissingNode()).as(what + ": " + reply).isTrue();
            String taskId = reply.path("result").path("task").path("id").asText();
            Accepted a = new Accepted(taskId, metadata, data);
            JsonNode read = call(endpoint, "GetTask", "{\"id\":\"" + taskId + "\"}");
            assertThat(read.path("error").isMissingNode()).as(what + ": " + read).isTrue();
            a.assertHeldBy(ProtoJson.read(read.path("result"), "result", Task.newBuilder()).build());
            accepted.add(a);
        }
        // Nothing refused was stored, and every accepted task still lists.
        JsonNode list = call(endpoint, "ListTasks", "{\"pageSize\":100}");
        assertThat(list.path("result").path("totalSize").asInt()).isEqualTo(accepted.size());
        return accepted;
    }

    private static Message message(Struct metadata, Value data) {
        return Message.newBuilder().setMessageId("m-" + System.nanoTime()).setRole(Role.ROLE_USER)
                .setMetadata(metadata)
                .addParts(Part.newBuilder().setText("echo"))
                .addParts(Part.newBuilder().setData(data))
                .build();
    }

    private static JsonNode call(URI endpoint, String method, String params) throws IOException, InterruptedException {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("%s answered %s", method, r.body()).isEqualTo(200);
        return WireJson.mapper().readTree(r.body());
    }
}
