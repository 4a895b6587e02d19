package legate.store.sqlite;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredTask;

/**
 * The logs of the tasks that have appends not committed yet, by task id. A log enters on its
 * task's first append after a commit and leaves when the writer has committed everything it held,
 * so memory follows the appends in flight, not the number of tasks.
 */
final class PendingLogs {
    /** Reads what the file holds of a task with nothing pending. */
    @FunctionalInterface
    interface FileTail {
        PendingLog.Committed of(String taskId);
    }

    private final Map<String, PendingLog> logs = new ConcurrentHashMap<>();

    /**
     * The task's log to append to. Absent from the map means everything of the task is committed
     * (a log leaves only after that), so the file's sequence number is the one to follow.
     */
    PendingLog forAppend(String taskId, FileTail committed) {
        PendingLog log = logs.get(taskId);
        if (log != null) {
            return log;
        }
        PendingLog fresh = new PendingLog(taskId, committed.of(taskId));
        PendingLog raced = logs.putIfAbsent(taskId, fresh);
        return raced != null ? raced : fresh;
    }

    /** The uncommitted task, or null. */
    StoredTask latest(String taskId) {
        PendingLog log = logs.get(taskId);
        return log == null ? null : log.latest();
    }

    /** The uncommitted events above {@code afterSeq}; empty when none. */
    List<LoggedEvent> eventsAfter(String taskId, long afterSeq) {
        PendingLog log = logs.get(taskId);
        return log == null ? List.of() : log.eventsAfter(afterSeq);
    }

    /** The writer committed {@code log}'s events up to {@code seq}. */
    void committed(PendingLog log, long seq) {
        // Retired and removed in one step under the log's monitor: an appender that finds it
        // retired finds it gone from the map too.
        synchronized (log) {
            if (log.committed(seq)) {
                logs.remove(log.taskId, log);
            }
        }
    }

    /** The writer's batch holding some of {@code log}'s events failed. */
    void lose(PendingLog log, Throwable cause) {
        synchronized (log) {
            log.lose(cause);
            logs.remove(log.taskId, log);
        }
    }

    /** An append refused before it was queued left {@code log} empty: it leaves the map. */
    void forget(PendingLog log) {
        synchronized (log) {
            if (log.retireIfIdle()) {
                logs.remove(log.taskId, log);
            }
        }
    }

    /** How many tasks have appends in flight (for tests of bounded memory). */
    int size() {
        return logs.size();
    }
}
