package legate.a2a.server.task;

import java.util.List;
import lf.a2a.v1.Message;
import lf.a2a.v1.Task;

/**
 * The {@code historyLength} of SendMessage's configuration, GetTask and ListTasks: how much of a
 * task's history the caller wants back.
 *
 * @param set whether the caller gave one
 * @param length the number asked for
 */
record HistoryLength(boolean set, int length) {

    /**
     * PROTOCOL (A2A §3.2.4): historyLength unset keeps the whole history, 0 (or less, as the JSON-RPC
     * binding of the JS SDK reads it) none, N the last N.
     */
    Task applyTo(Task task) {
        if (!set || length >= task.getHistoryCount()) {
            return task;
        }
        if (length <= 0) {
            return task.toBuilder().clearHistory().build();
        }
        List<Message> all = task.getHistoryList();
        return task.toBuilder().clearHistory().addAllHistory(all.subList(all.size() - length, all.size())).build();
    }
}
