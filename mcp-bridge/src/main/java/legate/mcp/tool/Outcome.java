package legate.mcp.tool;

import java.util.Locale;

/**
 * How an a2a_ask turn ended, reported beside the A2A state so a caller can act on it without
 * knowing the state machine. The set is ours and closed.
 */
enum Outcome {
    /** The task reached a terminal state; an error result when it failed, was canceled or rejected. */
    TASK,
    /** The agent answered with a Message instead of a task. */
    MESSAGE,
    /** The task waits for input or credentials; not an error: reply into the same taskId. */
    INTERRUPTED,
    /** The stream stopped before any of the above; an error carrying the identity to recover with. */
    TRUNCATED;

    /** The name on the wire: {@code task}, {@code message}, {@code interrupted}, {@code truncated}. */
    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
