package legate.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.RandomIds;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskQuery;
import legate.testsupport.Cleanup;
import legate.testsupport.NestingProperty;
import legate.wire.json.WireJson;
import lf.a2a.v1.Message;
import lf.a2a.v1.Role;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 30, defect 1, on a real PostgreSQL: what the nesting limit lets in is stored and read back
 * by this store too, and a stored task that no longer decodes never stops a start or a listing.
 *
 * <p>DEFECT: a SendMessage whose metadata nested 34 objects was accepted and stored; protobuf then
 * refused to decode the task (100 levels at most, three per object), so every GetTask and ListTasks
 * touching it answered -32603 with a stack trace of some 500 lines, and a start with it WORKING
 * exited 1 ("a stored task no longer decodes") until someone edited the database.
 */
class NestingAndUnreadableTasksTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @RegisterExtension
    static final Cleanup servers = new Cleanup();
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private static PostgresServer postgres;

    /** Echoes the caller's message (its parts and metadata) as the COMPLETED status message. */
    private static final AgentExecutor ECHO = (ctx, events) -> {
        events.task(ctx.initialTask());
        events.status(TaskState.TASK_STATE_COMPLETED, ctx.message().toBuilder().setRole(Role.ROLE_AGENT)
                .setMessageId(RandomIds.next()).setTaskId(ctx.taskId()).setContextId(ctx.contextId()).build());
    };

    @BeforeAll
    static void startServer() {
        postgres = servers.register(PostgresServer.start());
    }

    private int serve(PostgresTaskStore store, AgentExecutor executor) throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                port -> LegateCards.jsonRpc("echo", "echoes", "http://127.0.0.1:" + port + "/").build(), executor, store,
                Clock.systemUTC());
        return cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
    }

    @Test
    void valuesAtAndPastTheLimitAreStoredAndReadBackOrRefusedAtInput() throws Exception {
        DatabaseUrl url = postgres.freshDatabase();
        int port = serve(PostgresTaskStore.open(url, 2), ECHO);

        List<NestingProperty.Accepted> accepted = NestingProperty.check(URI.create("http://127.0.0.1:" + port + "/"), 30_3L);

        // Read back by another store on the same database, as the next start reads them.
        try (PostgresTaskStore reopened = PostgresTaskStore.open(url, 2)) {
            for (NestingProperty.Accepted a : accepted) {
                StoredTask stored = reopened.load(a.taskId()).orElseThrow();
                assertThat(stored.readable()).isTrue();
                a.assertHeldBy(stored.task());
                assertThat(reopened.eventsAfter(a.taskId(), 0)).isNotEmpty();
            }
            assertThat(reopened.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 100, "", "")).tasks())
                    .hasSize(accepted.size());
        }
    }

    /** A task record older code could write: metadata 34 objects deep encodes, but protobuf refuses to decode it. */
    private static byte[] tooDeepToDecode(Task t) {
        Value v = Value.newBuilder().setStringValue("x").build();
        for (int i = 0; i < 34; i++) {
            v = Value.newBuilder().setStructValue(Struct.newBuilder().putFields("k", v)).build();
        }
        Message first = t.getHistory(0).toBuilder().setMetadata(v.getStructValue()).build();
        return t.toBuilder().setHistory(0, first).build().toByteArray();
    }

    @Test
    void aStartFailsUnreadableRunningTasksSayingWhyAndListingsAndReadsGoOn() throws Exception {
        DatabaseUrl url = postgres.freshDatabase();
        try (PostgresTaskStore store = PostgresTaskStore.open(url, 2)) {
            for (String id : new String[] {"deep-working", "garbled-working", "fine-working"}) {
                Task t = TestTasks.task(id, TaskState.TASK_STATE_SUBMITTED);
                store.append(TestTasks.opened(1, t), false);
                store.append(TestTasks.status(2, TestTasks.moved(t, TaskState.TASK_STATE_WORKING, 1)), true);
            }
            for (String id : new String[] {"deep-done", "fine-done"}) {
                Task t = TestTasks.task(id, TaskState.TASK_STATE_SUBMITTED);
                store.append(TestTasks.opened(1, t), false);
                store.append(TestTasks.status(2, TestTasks.moved(t, TaskState.TASK_STATE_COMPLETED, 2)), true);
            }
        }
        // Written behind the store's back, as older code or a damaged row left them.
        try (Connection c = DriverManager.getConnection(url.jdbcUrl(), url.user(), url.password());
             PreparedStatement ps = c.prepareStatement("UPDATE legate.tasks SET task = ? WHERE id = ?")) {
            for (String id : new String[] {"deep-working", "deep-done"}) {
                ps.setBytes(1, tooDeepToDecode(TestTasks.task(id, TaskState.TASK_STATE_WORKING)));
                ps.setString(2, id);
                assertThat(ps.executeUpdate()).isEqualTo(1);
            }
            ps.setBytes(1, new byte[] {0x0A, (byte) 0xFF, 0x01});
            ps.setString(2, "garbled-working");
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }

        // The start that used to exit 1.
        int port = serve(PostgresTaskStore.open(url, 2), (ctx, events) -> events.task(ctx.initialTask()));

        for (String id : new String[] {"deep-working", "garbled-working"}) {
            JsonNode task = call(port, "GetTask", "{\"id\":\"" + id + "\"}").path("result");
            assertThat(task.path("status").path("state").asText()).as(id).isEqualTo("TASK_STATE_FAILED");
            assertThat(task.path("status").path("message").path("parts").path(0).path("text").asText()).as(id)
                    .contains("could not be read back").contains("no longer decodes");
        }
        JsonNode fine = call(port, "GetTask", "{\"id\":\"fine-working\"}").path("result");
        assertThat(fine.path("status").path("state").asText()).isEqualTo("TASK_STATE_FAILED");

        // The listing serves the rest; the one it cannot read is left out, not a -32603 for all.
        JsonNode list = call(port, "ListTasks", "{\"pageSize\":100}");
        assertThat(list.path("error").isMissingNode()).as(list.toString()).isTrue();
        assertThat(list.path("result").path("tasks")).extracting(t -> t.path("id").asText())
                .containsExactlyInAnyOrder("deep-working", "garbled-working", "fine-working", "fine-done");

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
