package legate.tap.show;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import legate.tap.show.ExchangeEvent.Flagged;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;
import legate.wire.sse.SseEvent;
import org.junit.jupiter.api.Test;

/** Each problem the tap flags, from events as the proxy reports them, and a clean exchange flagging none. */
class ProtocolCheckTest {
    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");
    private static final List<Header> VERSIONED = List.of(new Header("A2A-Version", "1.0"));
    private static final List<Header> GRPC_VERSIONED = List.of(new Header("a2a-version", "1.0"));
    private static final String TASK = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t1\",\"contextId\":\"c1\","
            + "\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}}";
    private static final String WORKING = update(1, "TASK_STATE_WORKING");
    private static final String DONE = update(1, "TASK_STATE_COMPLETED");

    private final List<ExchangeEvent> passed = new ArrayList<>();
    private final ProtocolCheck check = new ProtocolCheck(List.of(passed::add));

    // Rule: a well-formed stream passes every event on, in order, and flags nothing.
    @Test
    void aCleanStreamIsPassedOnUnflagged() {
        stream(1, VERSIONED, TASK, WORKING, DONE);
        assertThat(flags()).isEmpty();
        assertThat(passed).hasSize(6);
    }

    // Rule (A2A §3.1.2): a stream opens with a Task or a Message.
    @Test
    void aStreamOpeningWithAStatusUpdateIsFlagged() {
        stream(1, VERSIONED, WORKING, DONE);
        assertThat(flags()).containsExactly(Problem.FIRST_EVENT_NOT_TASK_OR_MESSAGE);
    }

    // Rule (A2A §3.2.6): a JSON-RPC request without A2A-Version is flagged; the query parameter counts.
    @Test
    void aRequestWithoutTheVersionIsFlaggedUnlessTheQueryCarriesIt() {
        stream(1, List.of(), TASK, DONE);
        assertThat(flags()).containsExactly(Problem.MISSING_A2A_VERSION);
        passed.clear();
        check.on(new Request(2, AT, "POST", "/?A2A-Version=1.0", "HTTP/1.1", List.of(), body("GetTask", 2)));
        assertThat(flags()).isEmpty();
    }

    // DEFECT: every v0.3 request was flagged. PROTOCOL (A2A §3.6): an absent A2A-Version means 0.3, so
    // a v0.3 method needs none; a v1.0 method beside it on the same path still does.
    @Test
    void aV03RequestNeedsNoVersion() {
        for (String method : List.of("message/send", "message/stream", "tasks/get", "tasks/cancel", "tasks/resubscribe",
                "tasks/pushNotificationConfig/set")) {
            check.on(new Request(3, AT, "POST", "/v0.3/", "HTTP/1.1", List.of(), body(method, 3)));
        }
        assertThat(flags()).isEmpty();
        check.on(new Request(4, AT, "POST", "/v0.3/", "HTTP/1.1", List.of(), body("SendMessage", 4)));
        assertThat(flags()).containsExactly(Problem.MISSING_A2A_VERSION);
    }

    // Rule (A2A §3.1.3): nothing follows a terminal state, in the same stream or a later one.
    @Test
    void anEventAfterATerminalStateIsFlagged() {
        stream(1, VERSIONED, TASK, DONE, WORKING);
        assertThat(flags()).containsExactly(Problem.EVENT_AFTER_TERMINAL_STATE);
        passed.clear();
        // A later stream may open with a snapshot of the ended task; an update after it is a change.
        stream(2, VERSIONED, TASK, WORKING);
        assertThat(flags()).containsExactly(Problem.EVENT_AFTER_TERMINAL_STATE);
    }

    // Rule (JSON-RPC 2.0 §5): every answer carries its request's id, a stream's frames included.
    @Test
    void aFrameWithAnotherIdIsFlagged() {
        stream(1, VERSIONED, TASK, update(99, "TASK_STATE_COMPLETED"));
        assertThat(flags()).containsExactly(Problem.ID_MISMATCH);
    }

    // Rule (A2A §9.5): an A2A error carries an ErrorInfo in data; a bare one is flagged, a proper one is not.
    @Test
    void anErrorWithoutErrorInfoIsFlagged() {
        answer(1, "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"Task not found\"}}");
        assertThat(flags()).containsExactly(Problem.ERROR_WITHOUT_ERROR_INFO);
        passed.clear();
        answer(2, "{\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-32001,\"message\":\"Task not found\",\"data\":[{"
                + "\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"TASK_NOT_FOUND\",\"domain\":\"a2a-protocol.org\"}]}}");
        assertThat(flags()).isEmpty();
        answer(3, "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32603,\"message\":\"oops\"}}");
        assertThat(flags()).as("a JSON-RPC error outside the A2A range, without data").isEmpty();
        answer(4, "{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-32602,\"message\":\"bad\",\"data\":\"text\"}}");
        assertThat(flags()).containsExactly(Problem.ERROR_WITHOUT_ERROR_INFO);
    }

    // Rule (A2A §11.6): an HTTP+JSON error is a google.rpc.Status with typed details; one without
    // them is flagged, a proper one and a non-A2A error with an empty list are not.
    @Test
    void aRestErrorWithoutItsDetailsIsFlagged() {
        restAnswer(1, "{\"error\":{\"code\":404,\"status\":\"NOT_FOUND\",\"message\":\"Task not found\"}}");
        assertThat(flags()).containsExactly(Problem.ERROR_WITHOUT_ERROR_INFO);
        passed.clear();
        restAnswer(2, "{\"error\":{\"code\":404,\"status\":\"NOT_FOUND\",\"message\":\"Task not found\",\"details\":[{"
                + "\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"TASK_NOT_FOUND\",\"domain\":\"a2a-protocol.org\"}]}}");
        restAnswer(3, "{\"error\":{\"code\":404,\"status\":\"NOT_FOUND\",\"message\":\"no such path\",\"details\":[]}}");
        assertThat(flags()).isEmpty();
        restAnswer(4, "{\"error\":{\"code\":400,\"status\":\"INVALID_ARGUMENT\",\"message\":\"bad\",\"details\":[{\"reason\":\"X\"}]}}");
        assertThat(flags()).containsExactly(Problem.ERROR_WITHOUT_ERROR_INFO);
    }

    // Rule (A2A §10.6): a gRPC error's google.rpc.Status (grpc-status-details-bin, shown decoded)
    // carries an ErrorInfo. NOT_FOUND and FAILED_PRECONDITION, which on A2A's service only A2A errors
    // give, are flagged without one; a transport's UNAVAILABLE or CANCELLED is not; details that are
    // not a Status, or an ErrorInfo without its reason, are flagged whatever the code; OK never.
    @Test
    void aGrpcErrorWithoutItsErrorInfoIsFlagged() {
        grpcAnswer(1, "5", null);
        grpcAnswer(2, "9", "{\"code\":9,\"message\":\"no\"}");
        assertThat(flags()).containsExactly(Problem.ERROR_WITHOUT_ERROR_INFO, Problem.ERROR_WITHOUT_ERROR_INFO);
        passed.clear();
        grpcAnswer(3, "5", "{\"code\":5,\"details\":[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\","
                + "\"reason\":\"TASK_NOT_FOUND\",\"domain\":\"a2a-protocol.org\"}]}");
        grpcAnswer(4, "14", null);
        grpcAnswer(5, "1", null);
        grpcAnswer(6, "0", null);
        assertThat(flags()).isEmpty();
        grpcAnswer(7, "13", "AAEC");
        grpcAnswer(8, "12", "{\"code\":12,\"details\":[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\"}]}");
        assertThat(flags()).containsExactly(Problem.ERROR_WITHOUT_ERROR_INFO, Problem.ERROR_WITHOUT_ERROR_INFO);
        passed.clear();
        // A server stream's status is in its trailers.
        check.on(new Request(9, AT, "POST", "/lf.a2a.v1.A2AService/SubscribeToTask", "HTTP/2", GRPC_VERSIONED, new byte[0]));
        check.on(new StreamClosed(9, AT, 0, 0, Outcome.COMPLETE, Duration.ofMillis(1), List.of(new Header("grpc-status", "5"))));
        assertThat(flags()).containsExactly(Problem.ERROR_WITHOUT_ERROR_INFO);
    }

    // Rule (A2A §10): a gRPC call carries a2a-version in its metadata as HTTP carries the header.
    @Test
    void aGrpcCallWithoutTheVersionIsFlagged() {
        check.on(new Request(1, AT, "POST", "/lf.a2a.v1.A2AService/GetTask", "HTTP/2", List.of(), "{\"id\":\"t\"}".getBytes(
                StandardCharsets.UTF_8)));
        assertThat(flags()).containsExactly(Problem.MISSING_A2A_VERSION);
        passed.clear();
        check.on(new Request(2, AT, "POST", "/lf.a2a.v1.A2AService/GetTask", "HTTP/2", GRPC_VERSIONED, new byte[0]));
        check.on(new Request(3, AT, "POST", "/other.Service/Call", "HTTP/2", List.of(), new byte[0]));
        assertThat(flags()).as("versioned, and a call of another service").isEmpty();
    }

    private void grpcAnswer(long n, String status, String details) {
        check.on(new Request(n, AT, "POST", "/lf.a2a.v1.A2AService/GetTask", "HTTP/2", GRPC_VERSIONED, new byte[0]));
        List<Header> headers = new ArrayList<>(List.of(new Header("content-type", "application/grpc"),
                new Header("grpc-status", status)));
        if (details != null) {
            headers.add(new Header("grpc-status-details-bin", details));
        }
        check.on(new Response(n, AT, 200, headers, new byte[0], 0, Outcome.COMPLETE, Duration.ofMillis(1)));
    }

    private void restAnswer(long n, String json) {
        check.on(new Request(n, AT, "GET", "/tasks/t" + n, "HTTP/1.1", VERSIONED, new byte[0]));
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        check.on(new Response(n, AT, 404, List.of(), bytes, bytes.length, Outcome.COMPLETE, Duration.ofMillis(1)));
    }

    private void stream(long n, List<Header> headers, String... frames) {
        check.on(new Request(n, AT, "POST", "/", "HTTP/1.1", headers, body("SendStreamingMessage", n)));
        check.on(new StreamOpened(n, AT, 200, List.of(new Header("Content-Type", "text/event-stream"))));
        for (int i = 0; i < frames.length; i++) {
            // A frame written with id 1 answers this stream's request; one with another id keeps it.
            check.on(new Frame(n, AT, i + 1, new SseEvent(null, frames[i].replace("\"id\":1,", "\"id\":" + n + ","), null)));
        }
        check.on(new StreamClosed(n, AT, frames.length, 100, Outcome.COMPLETE, Duration.ofMillis(5), List.of()));
    }

    private void answer(long n, String json) {
        check.on(new Request(n, AT, "POST", "/", "HTTP/1.1", VERSIONED, body("GetTask", n)));
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        check.on(new Response(n, AT, 200, List.of(), bytes, bytes.length, Outcome.COMPLETE, Duration.ofMillis(1)));
    }

    private static byte[] body(String method, long id) {
        return ("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\",\"params\":{}}").getBytes(StandardCharsets.UTF_8);
    }

    private static String update(long id, String state) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"statusUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\","
                + "\"status\":{\"state\":\"" + state + "\"}}}}";
    }

    private List<Problem> flags() {
        return passed.stream().filter(Flagged.class::isInstance).map(e -> ((Flagged) e).problem()).toList();
    }
}
