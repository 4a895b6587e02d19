package legate.a2a.server.task;

import java.util.List;
import lf.a2a.v1.Task;

/** One page of ListTasks: the tasks, the token of the next page ("" on the last) and the total count. */
public record TaskPage(List<Task> tasks, String nextPageToken, int totalSize) {
}
