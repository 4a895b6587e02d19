package legate.wire.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;

/**
 * Fuzzes the JSON-RPC codec's reading of a response from a peer (JSON-RPC 2.0 §5), as the A2A
 * client, the ACP connection and a forwarded reply read one: {@link JsonRpcCodec#parseTree} then
 * {@link JsonRpcCodec#toResponse} (docs/fuzzing.md; the request side is a2a-server's
 * JsonRpcRequestFuzzTest). Properties: a body that is no response costs a {@link JsonRpcException}
 * (-32700 or -32600), never another exception, which the client would report as an unexpected
 * failure; and a response it reads, written again by {@link JsonRpcCodec#write} as a relay writes
 * it, reads back the same.
 */
class JsonRpcResponseFuzzTest {
    @FuzzTest(maxDuration = "60s")
    void anyBodyIsReadAsAResponseOrRefusedWithItsCode(byte[] body) throws JsonRpcException {
        JsonRpcMessage.Response response;
        try {
            response = JsonRpcCodec.toResponse(JsonRpcCodec.parseTree(body));
        } catch (JsonRpcException e) {
            assertThat(e.code()).isIn(JsonRpcError.PARSE_ERROR, JsonRpcError.INVALID_REQUEST);
            assertThat(e.getMessage()).isNotBlank();
            return;
        }
        String again = JsonRpcCodec.write(response);
        JsonRpcMessage.Response read = JsonRpcCodec.toResponse(JsonRpcCodec.parseTree(again.getBytes(StandardCharsets.UTF_8)));
        assertThat(read.isError()).isEqualTo(response.isError());
        assertThat(read.result()).isEqualTo(response.result());
        assertThat(read.error()).isEqualTo(response.error());
    }
}
