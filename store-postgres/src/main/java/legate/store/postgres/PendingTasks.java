package legate.store.postgres;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import legate.a2a.model.TaskStates;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskEvent;

/**
 * What this process has appended and PostgreSQL may not hold yet, per task: the events waiting
 * for the group commit and the task after the latest of them, so that a read sees an append the
 * moment it returns (the store's contract) without waiting for its commit.
 *
 * <p>An entry also remembers the task's latest sequence number while its turn runs, so that an
 * agent streaming a hundred events costs one read of {@code last_seq}, not a hundred. It is
 * dropped once a turn-ending event has been committed and nothing else of the task is waiting;
 * memory therefore holds the running turns and the last few milliseconds of appends, never the
 * finished tasks.
 *
 * <p>When a task's events fail to commit, its entry stays as a tombstone: it holds no events (reads
 * show what the database holds) but remembers the last number appended, so the run that appended
 * them is refused when it goes on with the next number, which could otherwise happen to fit the
 * stored log. Any other number (a new turn that read the stored task first) replaces it.
 *
 * <p>Threading: appends of one task come from one thread at a time (the store's contract), the
 * group commit's writer trims entries, readers copy them; each entry is guarded by its own
 * monitor, held only for a few field updates.
 */
final class PendingTasks {
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    /** One task's uncommitted appends. Its fields are guarded by the entry itself. */
    static final class Entry {
        final String taskId;
        private long lastSeq;
        private StoredTask latest;
        private final ArrayDeque<LoggedEvent> uncommitted = new ArrayDeque<>();
        private boolean turnRunning;
        private boolean gone;
        private RuntimeException failure;

        private Entry(String taskId, long lastSeq) {
            this.taskId = taskId;
            this.lastSeq = lastSeq;
        }

        /** Why the entry's events could not be committed (it is a tombstone), or null. */
        synchronized RuntimeException failure() {
            return failure;
        }
    }

    /** The task's entry, or null when nothing of it is pending and no turn of it is known to run. */
    Entry get(String taskId) {
        return entries.get(taskId);
    }

    /** The task's entry, made from {@code committedSeq} (read from the database) unless another exists. */
    Entry adopt(String taskId, long committedSeq) {
        Entry fresh = new Entry(taskId, committedSeq);
        Entry existing = entries.putIfAbsent(taskId, fresh);
        return existing == null ? fresh : existing;
    }

    /**
     * Records {@code event} as the entry's next: false when the entry was dropped meanwhile (look
     * it up again).
     *
     * @throws IllegalStateException when the event's sequence number is not the task's next one
     */
    boolean record(Entry e, TaskEvent event) {
        synchronized (e) {
            if (e.gone) {
                return false;
            }
            if (e.failure != null) {
                if (event.seq() == e.lastSeq + 1) {
                    e.lastSeq = event.seq();
                    throw following(e.failure, "event " + event.seq() + " of task " + e.taskId
                            + " follows events that were not committed: " + e.failure.getMessage());
                }
                drop(e);
                return false;
            }
            if (event.seq() != e.lastSeq + 1) {
                throw new IllegalStateException("event " + event.seq() + " of task " + e.taskId
                        + " appended after event " + e.lastSeq + ": sequence numbers must follow each other");
            }
            e.lastSeq = event.seq();
            e.latest = new StoredTask(event.task(), event.seq(), event.owner());
            e.uncommitted.addLast(new LoggedEvent(event.seq(), event.event()));
            e.turnRunning = !TaskStates.endsTurn(event.task().getStatus().getState());
            return true;
        }
    }

    /** The task after its latest uncommitted event, or null when everything of it is committed. */
    StoredTask latest(String taskId) {
        Entry e = entries.get(taskId);
        if (e == null) {
            return null;
        }
        synchronized (e) {
            return e.latest;
        }
    }

    /** A copy of the task's uncommitted events above {@code afterSeq}, in order. */
    List<LoggedEvent> eventsAfter(String taskId, long afterSeq) {
        Entry e = entries.get(taskId);
        if (e == null) {
            return List.of();
        }
        synchronized (e) {
            List<LoggedEvent> out = new ArrayList<>(e.uncommitted.size());
            for (LoggedEvent le : e.uncommitted) {
                if (le.seq() > afterSeq) {
                    out.add(le);
                }
            }
            return out;
        }
    }

    /** The events up to {@code seq} are committed: forget them, and the entry when the turn is over. */
    void committed(Entry e, long seq) {
        synchronized (e) {
            while (!e.uncommitted.isEmpty() && e.uncommitted.peekFirst().seq() <= seq) {
                e.uncommitted.removeFirst();
            }
            if (e.uncommitted.isEmpty()) {
                e.latest = null;
                if (!e.turnRunning) {
                    drop(e);
                }
            }
        }
    }

    /**
     * The entry's events could not be committed ({@code failure}): forget all of it, so reads show
     * what the database holds and the next append reads the task's sequence number from there.
     */
    void failed(Entry e, RuntimeException failure) {
        synchronized (e) {
            if (e.failure == null) {
                e.failure = failure;
            }
            e.uncommitted.clear();
            e.latest = null;
        }
    }

    /**
     * The failure of an event that comes after one that failed ({@code first}), of the same kind:
     * refused out of sequence ({@link IllegalStateException}) or not committed ({@link PostgresStoreException}).
     */
    static RuntimeException following(RuntimeException first, String message) {
        return first instanceof IllegalStateException
                ? new IllegalStateException(message, first)
                : new PostgresStoreException(message, first);
    }

    private void drop(Entry e) {
        e.gone = true;
        entries.remove(e.taskId, e);
    }

}
