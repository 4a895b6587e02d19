package legate.tap;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.SocketTimeoutException;
import legate.wire.jsonrpc.JsonRpcCodec;
import legate.wire.jsonrpc.JsonRpcError;

/**
 * An answer the tap gives the client itself, because nothing was forwarded or nothing came back:
 * an HTTP status and a JSON-RPC error, so an A2A client reports the real cause instead of failing
 * to parse an HTML error page.
 */
record ErrorReply(int status, int code, String message) {

    /** The agent could not be reached: 502, naming the target and why. */
    static ErrorReply unreachable(URI target, IOException e) {
        return new ErrorReply(502, JsonRpcError.INTERNAL_ERROR,
                "legate tap: the agent at " + target + " is not reachable (" + reason(e) + ")");
    }

    /** The request body was over the tap's limit: 413, nothing forwarded. */
    static ErrorReply tooLarge(int limit) {
        return new ErrorReply(413, JsonRpcError.INVALID_REQUEST, "legate tap: the request body is larger than "
                + "the tap's limit of " + limit + " bytes; nothing was forwarded");
    }

    /** The request cannot be expressed to the upstream (a method or header the HTTP client refuses). */
    static ErrorReply unforwardable(String why) {
        return new ErrorReply(400, JsonRpcError.INVALID_REQUEST, "legate tap: cannot forward this request: " + why);
    }

    /** The JSON-RPC error response, echoing the request's id when its body is a JSON-RPC object. */
    String json(byte[] requestBody) {
        return JsonRpcCodec.errorJson(idOf(requestBody), new JsonRpcError(code, message, null));
    }

    private static JsonNode idOf(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        try {
            return JsonRpcCodec.idOf(JsonRpcCodec.parseTree(body));
        } catch (Exception e) {
            return null;
        }
    }

    private static String reason(IOException e) {
        if (e instanceof SocketTimeoutException) {
            return "connect timed out";
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return t.getMessage() == null ? "connection refused" : t.getMessage();
            }
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
