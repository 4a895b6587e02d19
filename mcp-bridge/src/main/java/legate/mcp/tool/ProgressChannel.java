package legate.mcp.tool;

import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpTransportException;
import java.util.Map;

/**
 * The progress notifications of one tool call, sent on the call's own response stream.
 *
 * <p>PROTOCOL (MCP 2025-06-18, utilities/progress): notifications are sent only when the request
 * carried {@code _meta.progressToken}, they echo that token, and {@code progress} must increase with
 * each one, whether or not a total is known. A call without a token gets none.
 *
 * <p>A notification that cannot be written means the caller hung up: the SDK's transport fails the
 * write once the connection is closed. That is the only way to notice, so a call without a token
 * learns of a hang-up only when it writes its result. Single-threaded.
 */
final class ProgressChannel {
    private final McpSyncServerExchange exchange;
    private final Object token;
    private long progress;
    private boolean callerGone;

    private ProgressChannel(McpSyncServerExchange exchange, Object token) {
        this.exchange = exchange;
        this.token = token;
    }

    static ProgressChannel of(McpSyncServerExchange exchange, CallToolRequest request) {
        Map<String, Object> meta = request.meta();
        return new ProgressChannel(exchange, meta == null ? null : meta.get("progressToken"));
    }

    /** Whether the caller asked for progress (a progressToken in the call's _meta). */
    boolean hasToken() {
        return token != null;
    }

    /**
     * Sends one notification with the next progress number; nothing without a token.
     *
     * @return false when the caller is gone (this write or an earlier one failed)
     */
    boolean send(String message) {
        if (token == null || callerGone) {
            return !callerGone;
        }
        progress++;
        try {
            exchange.progressNotification(ProgressNotification.builder(token, progress).message(message).build());
            return true;
        } catch (McpTransportException e) {
            callerGone = true;
            return false;
        }
    }
}
