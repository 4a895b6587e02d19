package legate.acp.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import legate.acp.permission.PermissionRequest;
import legate.acp.permission.PermissionVerdict;
import legate.acp.permission.PolicyDecision;
import legate.acp.protocol.SessionUpdate;

/**
 * What happens in a session while a prompt turn is running, as the turn's translation needs to hear
 * it. Updates come from the connection's reader thread in arrival order; permission decisions and
 * file refusals come from request threads.
 */
public interface TurnListener {

    String taskId();

    void onUpdate(SessionUpdate update);

    /** A permission request was answered; {@code asked} when the A2A caller was asked. */
    void onPermission(PermissionRequest request, PermissionVerdict verdict, boolean asked);

    /**
     * Puts a request the policy says to ask to the A2A caller, and blocks until it is answered, the
     * ask times out (the decision's refusal), or the task is canceled (answered "cancelled").
     *
     * @param toolCall the request's {@code toolCall} exactly as the agent sent it (null when absent), shown to the caller
     */
    PermissionVerdict ask(PermissionRequest request, JsonNode toolCall, PolicyDecision decision) throws InterruptedException;

    /** An fs/* request the bridge refused, with the reason given to the agent. */
    void onFileRefused(String method, String path, String reason);
}
