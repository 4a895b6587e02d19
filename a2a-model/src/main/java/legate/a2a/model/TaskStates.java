package legate.a2a.model;

import java.util.Locale;
import lf.a2a.v1.TaskState;

/**
 * The classes of {@link TaskState} the protocol distinguishes. The enum numbers do not follow the
 * classes (7 REJECTED is terminal, 6 and 8 are interrupted), so the classes are named here once.
 */
public final class TaskStates {
    private TaskStates() {
    }

    /** PROTOCOL (A2A §3.1.3): no further change once a task is completed, failed, canceled or rejected. */
    public static boolean isTerminal(TaskState s) {
        return s == TaskState.TASK_STATE_COMPLETED || s == TaskState.TASK_STATE_FAILED
                || s == TaskState.TASK_STATE_CANCELED || s == TaskState.TASK_STATE_REJECTED;
    }

    /** PROTOCOL (A2A §3.1.3): the agent waits for the client (input) or for credentials (auth). */
    public static boolean isInterrupted(TaskState s) {
        return s == TaskState.TASK_STATE_INPUT_REQUIRED || s == TaskState.TASK_STATE_AUTH_REQUIRED;
    }

    /** A blocking SendMessage returns at either: the caller has something to act on. */
    public static boolean endsTurn(TaskState s) {
        return isTerminal(s) || isInterrupted(s);
    }

    /** The state name without its prefix, lower-case words, for people: "input required". */
    public static String label(TaskState s) {
        return s.name().replace("TASK_STATE_", "").replace('_', ' ').toLowerCase(Locale.ROOT);
    }
}
