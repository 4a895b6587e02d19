package legate.tap.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.SocketTimeoutException;
import legate.tap.http.MalformedMessage;
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

    /**
     * The answer to a message the tap would not read, chosen by who sent it. A client's fault is
     * answered as the fault's own status, and nothing was forwarded; a server's fault is the agent's,
     * so the client gets 502: the tap, a gateway, got an answer it cannot relay (RFC 9110 §15.6.3).
     *
     * @param maxRequestBytes the tap's limit on a request body, named in a 413
     */
    static ErrorReply refusing(MalformedMessage e, URI target, int maxRequestBytes) {
        return switch (e.sender()) {
            case CLIENT -> switch (e.fault()) {
                // PROTOCOL (RFC 9112 §3, §5.1, §6.3): a request that breaks HTTP/1.1's syntax or framing is 400.
                case INVALID -> notForwarded(400, e);
                // PROTOCOL (RFC 6585 §5): a head over the server's bound is 431.
                case HEAD_TOO_LARGE -> notForwarded(431, e);
                // PROTOCOL (RFC 9110 §15.5.14): a body over the server's bound is 413.
                case BODY_TOO_LARGE -> new ErrorReply(413, JsonRpcError.INVALID_REQUEST, "legate tap: the request body"
                        + " is larger than the tap's limit of " + maxRequestBytes + " bytes; nothing was forwarded");
                // PROTOCOL (RFC 9112 §6.1): a transfer coding the server does not understand is 501.
                case UNSUPPORTED_CODING -> notForwarded(501, e);
                // PROTOCOL (RFC 9110 §15.6.6): an HTTP major version the server does not speak is 505.
                case UNSUPPORTED_VERSION -> notForwarded(505, e);
            };
            case SERVER -> new ErrorReply(502, JsonRpcError.INTERNAL_ERROR, "legate tap: the agent at " + target
                    + " sent a response the tap cannot relay: " + e.getMessage());
        };
    }

    /**
     * A Host the tap does not answer to: PROTOCOL (RFC 9110 §15.5.20) 421, the request reached a
     * server not configured for that authority. The tap answers the names {@code KnownHosts.forBind} gives it.
     */
    static ErrorReply misdirected(String host) {
        return new ErrorReply(421, JsonRpcError.INVALID_REQUEST, "legate tap: the tap answers only to its bind address,"
                + " localhost, 127.0.0.1, [::1] and the names in TAP_ALLOWED_HOSTS, not to the host name \""
                + host.replaceAll("[\\p{Cntrl}\"]", "?") + "\"; nothing was forwarded");
    }

    private static ErrorReply notForwarded(int status, MalformedMessage e) {
        return new ErrorReply(status, JsonRpcError.INVALID_REQUEST,
                "legate tap: not a request the tap can forward: " + e.getMessage() + "; nothing was forwarded");
    }

    /** The reason phrase of the status line the tap writes for its own answer. */
    String reasonPhrase() {
        return switch (status) {
            case 400 -> "Bad Request";
            case 413 -> "Content Too Large";
            case 421 -> "Misdirected Request";
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
