package legate.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import lf.a2a.v1.Message;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stored task that no longer decodes, on a real SQLite file, never stops a start or a listing
 * (issue 30, defect 1): it is set aside and the rest are served.
 *
 * <p>DEFECT: a task whose metadata nested 34 objects (accepted by older code) could be stored but
 * not decoded; with it WORKING, every start exited 1 ("a stored task no longer decodes"), and
 * with it anywhere in a caller's tasks, every ListTasks of that caller answered -32603.
 */
class UnreadableTaskTest {
    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @TempDir
    Path dir;

    /** A task record older code could write: metadata 34 objects deep encodes, but protobuf refuses to decode it. */
    static byte[] tooDeepToDecode(TaskHistory h) {
        Value v = Value.newBuilder().setStringValue("x").build();
        for (int i = 0; i < 34; i++) {
            v = Value.newBuilder().setStructValue(Struct.newBuilder().putFields("k", v)).build();
        }
        Message first = h.task().getHistory(0).toBuilder().setMetadata(v.getStructValue()).build();
        return h.task().toBuilder().setHistory(0, first).build().toByteArray();
    }

    @Test
    void aStartFailsUnreadableRunningTasksSayingWhyAndListingsAndReadsGoOn() throws Exception {
        try (SqliteTaskStore store = SqliteTaskStore.open(dir)) {
            for (String id : new String[] {"deep-working", "garbled-working", "fine-working"}) {
                TaskHistory h = new TaskHistory(id, "c-" + id, T0);
                store.append(h.created(), false);
                store.append(h.status(TaskState.TASK_STATE_WORKING, T0.plusMillis(1), "Working."), true);
            }
            for (String id : new String[] {"deep-done", "fine-done"}) {
                TaskHistory h = new TaskHistory(id, "c-" + id, T0);
                store.append(h.created(), false);
                store.append(h.status(TaskState.TASK_STATE_COMPLETED, T0.plusMillis(2), "Done."), true);
            }
        }
        // Written behind the store's back, as older code or a damaged file left them.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(SqliteTaskStore.FILE_NAME));
             PreparedStatement ps = c.prepareStatement("UPDATE tasks SET task = ? WHERE id = ?")) {
            for (String id : new String[] {"deep-working", "deep-done"}) {
                ps.setBytes(1, tooDeepToDecode(new TaskHistory(id, "c-" + id, T0)));
                ps.setString(2, id);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            ps.setBytes(1, new byte[] {0x0A, (byte) 0xFF, 0x01});
            ps.setString(2, "garbled-working");
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }

        // The start that used to exit 1.
        AgentServer server = AgentServer.create(ServerConfig.loopback(0), NestingPropertyTest::card,
                (ctx, events) -> events.task(ctx.initialTask()), SqliteTaskStore.open(dir), Clock.systemUTC());
        int port = cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);

        for (String id : new String[] {"deep-working", "garbled-working"}) {
            JsonNode task = call(port, "GetTask", "{\"id\":\"" + id + "\"}").path("result");
            assertThat(task.path("status").path("state").asText()).as(id).isEqualTo("TASK_STATE_FAILED");
            assertThat(task.path("status").path("message").path("parts").path(0).path("text").asText()).as(id)
                    .contains("could not be read back").contains("no longer decodes");
        }
        JsonNode fine = call(port, "GetTask", "{\"id\":\"fine-working\"}").path("result");
        assertThat(fine.path("status").path("state").asText()).isEqualTo("TASK_STATE_FAILED");
        assertThat(fine.path("history")).hasSize(2 + 1);

        // The listing serves the rest; the one it cannot read is left out, not a -32603 for all.
        JsonNode list = call(port, "ListTasks", "{\"pageSize\":100}");
        assertThat(list.path("error").isMissingNode()).as(list.toString()).isTrue();
        assertThat(list.path("result").path("tasks")).extracting(t -> t.path("id").asText())
                .containsExactlyInAnyOrder("deep-working", "garbled-working", "fine-working", "fine-done");

        // Page by page too: the row left out keeps its place, so no readable task is skipped or repeated.
        List<String> paged = new ArrayList<>();
        String token = "";
        for (int page = 0; page < 10; page++) {
            JsonNode result = call(port, "ListTasks", "{\"pageSize\":2,\"pageToken\":\"" + token + "\"}").path("result");
            result.path("tasks").forEach(t -> paged.add(t.path("id").asText()));
            token = result.path("nextPageToken").asText();
            if (token.isEmpty()) {
                break;
            }
        }
        assertThat(token).as("the last page says there is no next").isEmpty();
        assertThat(paged).containsExactlyInAnyOrder("deep-working", "garbled-working", "fine-working", "fine-done");

        // A read of it says what is wrong, in one line.
        JsonNode read = call(port, "GetTask", "{\"id\":\"deep-done\"}");
        assertThat(read.path("error").path("code").asInt()).isEqualTo(-32603);
        assertThat(read.path("error").path("message").asText()).contains("deep-done").contains("cannot be read")
                .doesNotContain("\n");
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
