package legate.tap.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ProtocolCheck;
import legate.wire.json.WireJson;
import legate.wire.sse.SseEvent;
import org.junit.jupiter.api.Test;

/**
 * What the tap reads from a body for the inspector's lists and filters. Each A2A shape an answer
 * or a frame can take (A2A §3.2.3, §4.1, §11) names its task and context in its own field.
 */
class BodyFactsTest {
    private static final Instant T0 = Instant.parse("2026-12-02T10:00:00Z");

    @Test
    void aJsonRpcRequestGivesItsMethodAndTheIdsItNames() {
        assertThat(facts(request("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
                + "{\"taskId\":\"t1\",\"contextId\":\"c1\",\"parts\":[{\"text\":\"hi\"}]}}}")))
                .isEqualTo("{\"rpc\":\"SendMessage\",\"taskIds\":[\"t1\"],\"contextIds\":[\"c1\"]}");
        assertThat(facts(request("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"t2\"}}")))
                .isEqualTo("{\"rpc\":\"GetTask\",\"taskIds\":[\"t2\"]}");
    }

    // HTTP+JSON (A2A §11) sends the request message as the body, with no method in it.
    @Test
    void aRestRequestNamesItsIdsWithoutAMethod() {
        assertThat(facts(request("{\"message\":{\"contextId\":\"c3\",\"parts\":[]}}")))
                .isEqualTo("{\"contextIds\":[\"c3\"]}");
    }

    // A gRPC call (A2A §10) is listed by its rpc; its request message, as ProtoJSON, names ids as
    // HTTP+JSON's body does, and a call without a message (or one the tap could not decode) still
    // has its rpc.
    @Test
    void aGrpcCallGivesItsRpcAndTheIdsItsMessageNames() {
        assertThat(facts(new Request(1, T0, "POST", "/lf.a2a.v1.A2AService/SendMessage", "HTTP/2", List.of(),
                "{\"message\":{\"taskId\":\"t8\",\"parts\":[]}}".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo("{\"rpc\":\"gRPC SendMessage\",\"taskIds\":[\"t8\"]}");
        assertThat(facts(new Request(2, T0, "POST", "/lf.a2a.v1.A2AService/GetTask", "HTTP/2", List.of(),
                "(compressed, 12 bytes, not shown)".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo("{\"rpc\":\"gRPC GetTask\"}");
    }

    @Test
    void everyAnswerShapeNamesItsTaskContextAndState() {
        assertThat(facts(response("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t1\",\"contextId\":\"c1\","
                + "\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}}")))
                .isEqualTo("{\"tasks\":[{\"id\":\"t1\",\"contextId\":\"c1\",\"state\":\"TASK_STATE_SUBMITTED\"}]}");
        assertThat(facts(frame("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"statusUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\","
                + "\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}}")))
                .isEqualTo("{\"tasks\":[{\"id\":\"t1\",\"contextId\":\"c1\",\"state\":\"TASK_STATE_WORKING\"}]}");
        assertThat(facts(frame("{\"artifactUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"artifact\":{\"parts\":[]}}}")))
                .as("an HTTP+JSON stream's frame, without the JSON-RPC envelope")
                .isEqualTo("{\"tasks\":[{\"id\":\"t1\",\"contextId\":\"c1\"}]}");
        assertThat(facts(response("{\"id\":\"t4\",\"contextId\":\"c4\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"}}")))
                .as("HTTP+JSON GetTask: the Task itself")
                .isEqualTo("{\"tasks\":[{\"id\":\"t4\",\"contextId\":\"c4\",\"state\":\"TASK_STATE_COMPLETED\"}]}");
        assertThat(facts(response("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tasks\":[{\"id\":\"t5\",\"status\":{}},"
                + "{\"id\":\"t6\",\"contextId\":\"c6\"}]}}")))
                .as("ListTasks").isEqualTo("{\"tasks\":[{\"id\":\"t5\"},{\"id\":\"t6\",\"contextId\":\"c6\"}]}");
        assertThat(facts(response("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"message\":{\"contextId\":\"c7\",\"parts\":[]}}}")))
                .as("a message without a task names its context only").isEqualTo("{\"contextIds\":[\"c7\"]}");
    }

    // An answer that says nothing the lists need adds nothing; a body that is not JSON is not read.
    @Test
    void anErrorOrABodyThatIsNotJsonHasNoFacts() {
        assertThat(facts(response("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"no such task\"}}")))
                .isNull();
        assertThat(facts(response("not json"))).isNull();
    }

    /** The facts as JSON, the empty members left out, for comparing; null when there are none. */
    private static String facts(ExchangeEvent e) {
        BodyFacts f = BodyFacts.of(e, ProtocolCheck.body(e));
        ObjectNode o = WireJson.mapper().createObjectNode();
        if (f.rpc() != null) {
            o.put("rpc", f.rpc());
        }
        if (!f.taskIds().isEmpty()) {
            f.taskIds().forEach(o.putArray("taskIds")::add);
        }
        if (!f.contextIds().isEmpty()) {
            f.contextIds().forEach(o.putArray("contextIds")::add);
        }
        for (BodyFacts.Shown t : f.tasks()) {
            ObjectNode shown = o.withArray("tasks").addObject().put("id", t.id());
            if (t.contextId() != null) {
                shown.put("contextId", t.contextId());
            }
            if (t.state() != null) {
                shown.put("state", t.state());
            }
        }
        return o.isEmpty() ? null : o.toString();
    }

    private static Request request(String body) {
        return new Request(1, T0, "POST", "/", "HTTP/1.1", List.of(), body.getBytes(StandardCharsets.UTF_8));
    }

    private static Response response(String body) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        return new Response(1, T0, 200, List.of(), b, b.length, Outcome.COMPLETE, Duration.ofMillis(1));
    }

    private static Frame frame(String data) {
        return new Frame(1, T0, 1, new SseEvent(null, data, null));
    }
}
