package legate.acp.adapter;

/**
 * How a conversation's agent got its session when it was started: fresh, restored from the
 * conversation's record ({@code session/load} or {@code session/resume}), or fresh because the
 * earlier one could not be restored. What the task's WORKING line says about the agent's memory.
 */
public sealed interface SessionStart {

    /** The conversation's first session: nothing to restore. */
    record Fresh() implements SessionStart {
    }

    /** The earlier session was restored with {@code method}, so the agent remembers the conversation. */
    record Restored(String method, String sessionId) implements SessionStart {
    }

    /** A fresh session, because the earlier one ({@code sessionId}) could not be restored, for the reason given. */
    record Lost(String sessionId, String why) implements SessionStart {
    }
}
