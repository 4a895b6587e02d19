package legate.wire.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import legate.wire.json.WireJson;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** JSON-RPC 2.0 §4-§5 envelope rules, and the bounds that keep a hostile body cheap. */
class JsonRpcCodecTest {

    private static JsonNode tree(String json) throws JsonRpcException {
        return JsonRpcCodec.parseTree(json.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void malformedJsonIsAParseError() {
        assertThatThrownBy(() -> tree("{\"jsonrpc\":"))
                .isInstanceOf(JsonRpcException.class)
                .satisfies(e -> assertThat(((JsonRpcException) e).code()).isEqualTo(-32700));
    }

    @Test
    void deeplyNestedJsonIsRefusedAsAParseError() {
        String deep = "[".repeat(10_000) + "]".repeat(10_000);
        assertThatThrownBy(() -> tree(deep))
                .isInstanceOf(JsonRpcException.class)
                .satisfies(e -> assertThat(((JsonRpcException) e).code()).isEqualTo(-32700));
    }

    @Test
    void theIdIsEchoedAsItsOwnJsonType() throws JsonRpcException {
        assertThat(JsonRpcCodec.resultJson(JsonRpcCodec.idOf(tree("{\"id\":7}")), "{}")).contains("\"id\":7,");
        assertThat(JsonRpcCodec.resultJson(JsonRpcCodec.idOf(tree("{\"id\":\"7\"}")), "{}")).contains("\"id\":\"7\",");
        assertThat(JsonRpcCodec.idOf(tree("{\"id\":{\"x\":1}}")).isNull()).isTrue();
    }

    @Test
    void aRequestNeedsVersionTwoAndAMethod() {
        assertThatThrownBy(() -> JsonRpcCodec.toRequest(tree("{\"id\":1,\"method\":\"GetTask\"}")))
                .satisfies(e -> assertThat(((JsonRpcException) e).code()).isEqualTo(-32600));
        assertThatThrownBy(() -> JsonRpcCodec.toRequest(tree("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}")))
                .satisfies(e -> assertThat(((JsonRpcException) e).code()).isEqualTo(-32600));
        assertThatThrownBy(() -> JsonRpcCodec.toRequest(tree("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}]")))
                .satisfies(e -> assertThat(((JsonRpcException) e).getMessage()).contains("batch"));
        assertThatThrownBy(() -> JsonRpcCodec.toRequest(tree("{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"a\"}")))
                .satisfies(e -> assertThat(((JsonRpcException) e).code()).isEqualTo(-32600));
    }

    @Test
    void aRequestWithoutIdIsANotification() throws JsonRpcException {
        assertThat(JsonRpcCodec.toRequest(tree("{\"jsonrpc\":\"2.0\",\"method\":\"a\"}")).isNotification()).isTrue();
        assertThat(JsonRpcCodec.toRequest(tree("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"a\"}")).isNotification()).isFalse();
    }

    @Test
    void errorResponsesCarryCodeMessageAndData() throws JsonRpcException {
        String json = JsonRpcCodec.errorJson(null, new JsonRpcError(-32001, "Task not found: x",
                WireJson.mapper().createArrayNode().add("d")));
        JsonRpcMessage.Response r = JsonRpcCodec.toResponse(tree(json));
        assertThat(r.isError()).isTrue();
        assertThat(r.error().code()).isEqualTo(-32001);
        assertThat(r.error().message()).isEqualTo("Task not found: x");
        assertThat(r.error().data().get(0).asText()).isEqualTo("d");
    }

    // PROTOCOL (JSON-RPC 2.0 §4, §5): the envelope every Legate writer sends, member for member,
    // whether it wraps already-printed text or a tree; only the codec writes one.
    @Test
    void everyEnvelopeHasTheSameShape() throws JsonRpcException {
        assertThat(JsonRpcCodec.resultJson(tree("7"), "{\"a\":1}"))
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"a\":1}}");
        StringBuilder frame = JsonRpcCodec.openResult(JsonRpcCodec.idJson(tree("\"s\"")), new StringBuilder("data: "));
        assertThat(JsonRpcCodec.closeEnvelope(frame.append("{\"a\":1}")))
                .hasToString("data: {\"jsonrpc\":\"2.0\",\"id\":\"s\",\"result\":{\"a\":1}}");
        assertThat(JsonRpcCodec.requestJson(3, "GetTask", "{\"id\":\"t\"}"))
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"GetTask\",\"params\":{\"id\":\"t\"}}");
        assertThat(JsonRpcCodec.errorJson(null, new JsonRpcError(-32000, "no \"token\"", null)))
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,\"message\":\"no \\\"token\\\"\"}}");
        assertThat(JsonRpcCodec.write(new JsonRpcMessage.Request(tree("4"), "session/new", tree("{\"cwd\":\"/x\"}"))))
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"session/new\",\"params\":{\"cwd\":\"/x\"}}");
        assertThat(JsonRpcCodec.write(new JsonRpcMessage.Response(tree("\"r1\""), tree("[1]"), null)))
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"result\":[1]}");
    }

    @Test
    void aMethodNameIsWrittenAsAJsonString() throws JsonRpcException {
        JsonRpcMessage.Request back = JsonRpcCodec.toRequest(tree(JsonRpcCodec.requestJson(1, "odd \"name\"\n", "{}")));
        assertThat(back.method()).isEqualTo("odd \"name\"\n");
        assertThat(back.params().isObject()).isTrue();
    }

    // ACP frames each message as one line: a line break inside a value must stay escaped.
    @Test
    void aTreeMessageIsOneLineAndLeavesOutWhatItDoesNotHave() throws JsonRpcException {
        String notification = JsonRpcCodec.write(new JsonRpcMessage.Request(null, "session/cancel",
                tree("{\"text\":\"two\\nlines\"}")));
        assertThat(notification).doesNotContain("\n").doesNotContain("\"id\"");
        assertThat(JsonRpcCodec.toRequest(tree(notification)).isNotification()).isTrue();
        assertThat(JsonRpcCodec.write(new JsonRpcMessage.Request(tree("1"), "ping", null))).doesNotContain("params");
        assertThat(JsonRpcCodec.write(new JsonRpcMessage.Response(tree("1"), null, null)))
                .isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":null}");
    }
}
