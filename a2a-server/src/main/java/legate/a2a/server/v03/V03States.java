package legate.a2a.server.v03;

import lf.a2a.v1.TaskState;

/**
 * The task states by their v0.3 names (lower-case kebab: {@code input-required}) and their v1.0
 * names ({@code TASK_STATE_INPUT_REQUIRED}). v0.3's {@code unknown} is v1.0's
 * {@code TASK_STATE_UNSPECIFIED}, which no stored task has.
 */
final class V03States {
    private V03States() {
    }

    static String toV03(TaskState state) {
        return switch (state) {
            case TASK_STATE_SUBMITTED -> "submitted";
            case TASK_STATE_WORKING -> "working";
            case TASK_STATE_COMPLETED -> "completed";
            case TASK_STATE_FAILED -> "failed";
            case TASK_STATE_CANCELED -> "canceled";
            case TASK_STATE_INPUT_REQUIRED -> "input-required";
            case TASK_STATE_REJECTED -> "rejected";
            case TASK_STATE_AUTH_REQUIRED -> "auth-required";
            case TASK_STATE_UNSPECIFIED, UNRECOGNIZED -> "unknown";
        };
    }

    /** The v1.0 state of a v0.3 name; a name v0.3 does not define is {@code TASK_STATE_UNSPECIFIED}. */
    static TaskState toV1(String state) {
        return switch (state) {
            case "submitted" -> TaskState.TASK_STATE_SUBMITTED;
            case "working" -> TaskState.TASK_STATE_WORKING;
            case "completed" -> TaskState.TASK_STATE_COMPLETED;
            case "failed" -> TaskState.TASK_STATE_FAILED;
            case "canceled" -> TaskState.TASK_STATE_CANCELED;
            case "input-required" -> TaskState.TASK_STATE_INPUT_REQUIRED;
            case "rejected" -> TaskState.TASK_STATE_REJECTED;
            case "auth-required" -> TaskState.TASK_STATE_AUTH_REQUIRED;
            default -> TaskState.TASK_STATE_UNSPECIFIED;
        };
    }
}
