package legate.mcp.guard;

import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import legate.wire.jsonrpc.JsonRpcCodec;
import legate.wire.jsonrpc.JsonRpcError;

/**
 * An HTTP answer that refuses a request before MCP sees it: a status and a JSON-RPC error body with
 * no id, the shape the MCP SDKs' own servers send when they refuse at the transport.
 *
 * @param status the HTTP status (401, 403)
 * @param message one line for the person reading the client's error
 */
record Refusal(int status, String message) {
    /** JSON-RPC's "server error" range; the SDKs use -32000 for transport-level refusals. */
    private static final int CODE = -32000;

    void writeTo(HttpServletResponse response) throws IOException {
        String body = JsonRpcCodec.errorJson(null, new JsonRpcError(CODE, message, null));
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
