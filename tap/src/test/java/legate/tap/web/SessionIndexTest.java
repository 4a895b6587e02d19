package legate.tap.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;
import legate.tap.show.ProtocolCheck;
import legate.wire.json.WireJson;
import org.junit.jupiter.api.Test;

/** What the inspector's lists and views are drawn from, as the page reads it from the tap. */
class SessionIndexTest {
    private static final Instant T0 = Instant.parse("2026-12-02T10:00:00Z");

    private final SessionHistory history = new SessionHistory(Inspector.MAX_EVENTS, Inspector.MAX_HISTORY_BYTES);

    // A task's view reads every exchange that showed the task or named it (a GetTask, a later turn);
    // a context's view those that showed or named its tasks, so a conversation reads whole.
    @Test
    void aTaskOrContextViewReadsTheExchangesThatShowedOrNamedIt() throws Exception {
        exchange(1, rpc("SendMessage", "{\"message\":{\"parts\":[]}}"), task("t1", "c1", "TASK_STATE_COMPLETED"));
        exchange(2, rpc("GetTask", "{\"id\":\"t1\"}"), "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001}}");
        exchange(3, rpc("SendMessage", "{\"message\":{\"contextId\":\"c1\",\"parts\":[]}}"), task("t2", "c1", "TASK_STATE_WORKING"));
        exchange(4, rpc("SendMessage", "{\"message\":{\"parts\":[]}}"), task("t3", "c2", "TASK_STATE_WORKING"));

        assertThat(history.exchangesOf(index -> index.exchangesOfTask("t1"))).containsExactlyInAnyOrder(1L, 2L);
        assertThat(history.exchangesOf(index -> index.exchangesOfContext("c1"))).containsExactlyInAnyOrder(1L, 2L, 3L);
        assertThat(history.exchangesOf(index -> index.exchangesOfTask("nobody"))).isEmpty();
        assertThat(json(history.tasks()).get("tasks").toString()).isEqualTo("[{\"id\":\"t3\",\"contextId\":\"c2\","
                + "\"state\":\"TASK_STATE_WORKING\"},{\"id\":\"t2\",\"contextId\":\"c1\",\"state\":\"TASK_STATE_WORKING\"},"
                + "{\"id\":\"t1\",\"contextId\":\"c1\",\"state\":\"TASK_STATE_COMPLETED\"}]");
        assertThat(json(history.contexts()).get("contexts").toString())
                .isEqualTo("[{\"id\":\"c2\",\"tasks\":1},{\"id\":\"c1\",\"tasks\":2}]");
        JsonNode filtered = json(history.rows(new SessionIndex.Filter("", "", "T1", "")));
        assertThat(filtered.get("rows").findValuesAsText("n")).containsExactly("2", "1");
    }

    // DEFECT: the index keeps ids by reference into a ring that lets the oldest go; a row that named
    // a task long let go must show no id, never the id that took the task's place in the ring.
    @Test
    void aRowWhoseTaskWasLetGoShowsNoOtherTasksId() throws Exception {
        exchange(1, rpc("SendMessage", "{\"message\":{\"parts\":[]}}"), task("first", "c0", "TASK_STATE_WORKING"));
        // ListTasks pages of 100 tasks: the ring of tasks turns over while the rows stay.
        int pages = SessionIndex.MAX_KEPT / 100 + 1;
        for (int p = 0; p < pages; p++) {
            StringBuilder tasks = new StringBuilder();
            for (int i = 0; i < 100; i++) {
                tasks.append(i == 0 ? "" : ",").append("{\"id\":\"p").append(p).append("-").append(i).append("\"}");
            }
            exchange(2 + p, rpc("ListTasks", "{}"), "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tasks\":[" + tasks + "]}}");
        }
        JsonNode first = row(json(history.rows(new SessionIndex.Filter("SendMessage", "", "", ""))), 1);
        assertThat(first).as("exchange 1 is still listed").isNotNull();
        assertThat(first.has("taskIds")).as("its task was let go: %s", first).isFalse();
        assertThat(history.exchangesOf(index -> index.exchangesOfTask("first"))).isEmpty();
        JsonNode counts = json(history.message(new SessionHistory.PageState())).get("counts");
        assertThat(counts.get("tasks").asLong()).isEqualTo(1 + pages * 100L);
    }

    // An id too long to keep is not listed; the exchange still is, and the tap goes on.
    @Test
    void anIdTooLongToKeepLeavesTheRowListed() throws Exception {
        String huge = "t".repeat(IdRing.MAX_ID_BYTES + 1);
        exchange(1, rpc("GetTask", "{\"id\":\"" + huge + "\"}"), task(huge, "c1", "TASK_STATE_WORKING"));
        JsonNode rows = json(history.rows(new SessionIndex.Filter("", "", "", ""))).get("rows");
        assertThat(rows).hasSize(1);
        assertThat(rows.get(0).get("label").asText()).isEqualTo("GetTask");
        assertThat(json(history.tasks()).get("tasks")).isEmpty();
        assertThat(history.exchangesOf(index -> index.exchangesOfTask(huge))).isEmpty();
    }

    // A gRPC call (A2A §10) is listed by its rpc and the status it ended with, which the status
    // filter matches by name; a server stream's status comes with its trailers.
    @Test
    void aGrpcCallIsListedByItsRpcAndStatus() throws Exception {
        add(new Request(1, T0, "POST", "/lf.a2a.v1.A2AService/GetTask", "HTTP/2", List.of(), bytes("{\"id\":\"t9\"}")));
        add(new Response(1, T0.plusMillis(1), 200, List.of(new Header("grpc-status", "5")), new byte[0], 0,
                Outcome.COMPLETE, Duration.ofMillis(1)));
        add(new Request(2, T0, "POST", "/lf.a2a.v1.A2AService/SubscribeToTask", "HTTP/2", List.of(), bytes("{\"id\":\"t9\"}")));
        add(new StreamOpened(2, T0, 200, List.of()));
        add(new StreamClosed(2, T0.plusMillis(3), 0, 0, Outcome.COMPLETE, Duration.ofMillis(3),
                List.of(new Header("grpc-status", "0"))));
        JsonNode rows = json(history.rows(new SessionIndex.Filter("", "", "", ""))).get("rows");
        assertThat(rows.get(1).get("label").asText()).isEqualTo("gRPC GetTask");
        assertThat(rows.get(1).get("grpc").asText()).isEqualTo("NOT_FOUND");
        assertThat(rows.get(1).get("taskIds").toString()).isEqualTo("[\"t9\"]");
        assertThat(rows.get(0).get("label").asText()).isEqualTo("gRPC SubscribeToTask");
        assertThat(rows.get(0).get("grpc").asText()).isEqualTo("OK");
        JsonNode notFound = json(history.rows(new SessionIndex.Filter("", "not_found", "", ""))).get("rows");
        assertThat(notFound.findValuesAsText("n")).containsExactly("1");
    }

    private void exchange(long n, String request, String answer) {
        add(new Request(n, T0.plusMillis(n), "POST", "/", "HTTP/1.1", List.of(), bytes(request)));
        add(new Response(n, T0.plusMillis(n + 1), 200, List.of(), bytes(answer), bytes(answer).length, Outcome.COMPLETE,
                Duration.ofMillis(1)));
    }

    private void add(ExchangeEvent e) {
        history.add(e, ProtocolCheck.body(e));
    }

    private static String rpc(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    private static String task(String id, String context, String state) {
        return "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"" + id + "\",\"contextId\":\"" + context
                + "\",\"status\":{\"state\":\"" + state + "\"}}}}";
    }

    private static JsonNode row(JsonNode listing, long n) {
        for (JsonNode r : listing.get("rows")) {
            if (r.get("n").asLong() == n) {
                return r;
            }
        }
        return null;
    }

    private static JsonNode json(byte[] bytes) throws Exception {
        return WireJson.mapper().readTree(bytes);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
