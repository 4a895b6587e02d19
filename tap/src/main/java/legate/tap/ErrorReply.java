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

    /** The agent answered with something the tap cannot relay as HTTP/1.1: 502, naming the target. */
    static ErrorReply badResponse(URI target, MalformedMessage e) {
        return new ErrorReply(502, JsonRpcError.INTERNAL_ERROR, "legate tap: the agent at " + target
                + " sent a response the tap cannot relay: " + e.getMessage());
    }

    /** The request's head or framing breaks HTTP/1.1: 400 (or the more precise status), nothing forwarded. */
    static ErrorReply malformed(MalformedMessage e) {
        return new ErrorReply(e.status(), JsonRpcError.INVALID_REQUEST,
                "legate tap: not a request the tap can forward: " + e.getMessage() + "; nothing was forwarded");
    }

    /** The reason phrase of the status line the tap writes for its own answer. */
    String reasonPhrase() {
        return switch (status) {
            case 400 -> "Bad Request";
            case 413 -> "Content Too Large";
            case 431 -> "Request Header Fields Too Large";
            case 501 -> "Not Implemented";
            case 502 -> "Bad Gateway";
            case 505 -> "HTTP Version Not Supported";
            default -> "Error";
        };
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
