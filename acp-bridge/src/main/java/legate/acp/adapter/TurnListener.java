package legate.acp.adapter;

import legate.acp.permission.PermissionRequest;
import legate.acp.permission.PermissionVerdict;
import legate.acp.protocol.SessionUpdate;

/**
 * What happens in a session while a prompt turn is running, as the turn's translation needs to hear
 * it. Updates come from the connection's reader thread in arrival order; permission decisions and
 * file refusals come from request threads.
 */
public interface TurnListener {

    String taskId();

    void onUpdate(SessionUpdate update);

    void onPermission(PermissionRequest request, PermissionVerdict verdict);

    /** An fs/* request the bridge refused, with the reason given to the agent. */
    void onFileRefused(String method, String path, String reason);
}
