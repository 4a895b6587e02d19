package legate.store.sqlite;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskEvent;

/**
 * What of one task's log has been appended but not committed yet: those events and the task after
 * the latest. Reads merge it over what the file holds, so an append is visible the moment it
 * returns. Guarded by its own monitor; listed in {@link PendingLogs} only while it holds something.
 */
final class PendingLog {
    final String taskId;
    /**
     * The task's integer key in the file, 0 until the writer gives it one; with {@link #inFile},
     * read and written by the writer thread only (after construction).
     */
    long key;
    /** Whether the file holds the task's row (the writer updates it) or not yet (the writer inserts it). */
    boolean inFile;
    /** The sequence number of the task's latest event, committed or not. */
    private long lastSeq;
    /** Whose task it is: the file's row says, or else the task's first event. */
    private String owner;
    /** The task after {@link #lastSeq} until that is committed; null after. */
    private StoredTask latest;
    private final ArrayDeque<LoggedEvent> events = new ArrayDeque<>();
    /** Taken out of {@link PendingLogs}: an appender that still holds it must look again. */
    private boolean retired;
    /** Why its uncommitted events were dropped: their batch failed, so later ones may not follow them. */
    private Throwable lost;

    /** A log that follows what the file holds of the task: {@code committed}, or nothing. */
    PendingLog(String taskId, Committed committed) {
        this.taskId = taskId;
        this.key = committed.key();
        this.inFile = committed.key() != 0;
        this.lastSeq = committed.lastSeq();
        this.owner = committed.owner();
    }

    /** What the file holds of a task: its key, latest sequence number and owner; 0, 0, "" when nothing. */
    record Committed(long key, long lastSeq, String owner) {
        static final Committed NOTHING = new Committed(0, 0, "");
    }

    /**
     * Takes {@code event} as the task's next; false when this log was retired (the caller looks
     * again). The caller holds this log's monitor, so what it enqueues next is in sequence order.
     *
     * @throws IllegalStateException when {@code event} is not the next of the task's log
     */
    synchronized boolean accept(TaskEvent event) {
        if (retired) {
            return false;
        }
        if (event.seq() != lastSeq + 1) {
            throw new IllegalStateException("event " + event.seq() + " of task " + taskId
                    + " does not follow its latest event, " + lastSeq);
        }
        if (lastSeq == 0) {
            owner = event.owner();
        }
        lastSeq = event.seq();
        latest = new StoredTask(event.task(), event.seq(), owner);
        events.add(new LoggedEvent(event.seq(), event.event()));
        return true;
    }

    /** The principal the task belongs to, for the writer's insert of its row. */
    synchronized String owner() {
        return owner;
    }

    synchronized StoredTask latest() {
        return latest;
    }

    /** The uncommitted events above {@code afterSeq}, in order. */
    synchronized List<LoggedEvent> eventsAfter(long afterSeq) {
        List<LoggedEvent> out = new ArrayList<>(events.size());
        for (LoggedEvent e : events) {
            if (e.seq() > afterSeq) {
                out.add(e);
            }
        }
        return out;
    }

    /** Drops what is committed up to {@code seq}; true when nothing is left, and the log is retired. */
    synchronized boolean committed(long seq) {
        while (!events.isEmpty() && events.peekFirst().seq() <= seq) {
            events.pollFirst();
        }
        if (latest != null && latest.lastSeq() <= seq) {
            latest = null;
        }
        return retireIfIdle();
    }

    /** Its batch failed: drops everything uncommitted and retires; events queued after it are lost too. */
    synchronized void lose(Throwable cause) {
        lost = cause;
        events.clear();
        latest = null;
        retired = true;
    }

    synchronized Throwable lost() {
        return lost;
    }

    /** Retires the log when it holds nothing; true then. */
    synchronized boolean retireIfIdle() {
        if (latest == null && events.isEmpty()) {
            retired = true;
        }
        return retired;
    }
}
