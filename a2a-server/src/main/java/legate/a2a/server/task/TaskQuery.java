package legate.a2a.server.task;

import java.time.Instant;
import lf.a2a.v1.TaskState;

/**
 * The filters and position of a ListTasks call, already validated.
 *
 * @param contextId only tasks of this conversation, or empty for all
 * @param status only tasks in this state, or TASK_STATE_UNSPECIFIED for all
 * @param statusAfter only tasks whose status time is at or after this instant, or null
 * @param pageSize 1..100
 * @param pageToken "" for the first page, else a token from an earlier page
 * @param owner only tasks of this principal ("" for the anonymous caller): a caller lists its own
 */
public record TaskQuery(String contextId, TaskState status, Instant statusAfter, int pageSize, String pageToken,
                        String owner) {
    public TaskQuery {
        if (owner == null) {
            owner = "";
        }
    }

    /** The anonymous caller's tasks. */
    public TaskQuery(String contextId, TaskState status, Instant statusAfter, int pageSize, String pageToken) {
        this(contextId, status, statusAfter, pageSize, pageToken, "");
    }
}
