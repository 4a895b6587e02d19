package legate.acp.connection;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The client side of ACP as the agent sees it: what the bridge does with the agent's notifications
 * and requests.
 *
 * <p>Threading: notifications are delivered on the connection's reader thread, one at a time, in the
 * order they arrived, and before the line after them is read (so every update of a turn is handled
 * before the turn's answer completes its future). Requests each run on their own virtual thread,
 * since an answer may take a while and must not hold up the updates behind it.
 */
public interface ClientHandler {

    void onNotification(String method, JsonNode params);

    /** The result to answer with; an {@link AcpException} is answered as that JSON-RPC error. */
    JsonNode onRequest(String method, JsonNode params) throws AcpException;
}
