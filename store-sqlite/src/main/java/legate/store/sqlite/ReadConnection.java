package legate.store.sqlite;

import com.google.protobuf.InvalidProtocolBufferException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskPage;
import legate.a2a.server.task.TaskQuery;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskState;

/**
 * One connection that reads, with its statements prepared once. Used by one thread at a time
 * (borrowed from the {@link ReadPool}); sees what was committed before each statement began.
 */
final class ReadConnection implements AutoCloseable {
    private final Connection c;
    private final PreparedStatement task;
    private final PreparedStatement committed;
    private final PreparedStatement events;
    private final PreparedStatement context;
    private final PreparedStatement unsettled;
    private final PreparedStatement claimed;
    private final PreparedStatement taskOwner;

    ReadConnection(Connection c) throws SQLException {
        this.c = c;
        this.task = c.prepareStatement("SELECT task, last_seq, owner, context_id, state FROM tasks WHERE id = ?");
        // An aggregate, so a row comes back for an unknown task too: on a statement that ends without
        // a row, the driver runs a BEGIN and a COMMIT to honour autocommit. (A new task's first event
        // is no longer looked up at all, SqliteTaskStore.NEW_TASK; an unknown id here is a caller's
        // wrong sequence number, refused just after.)
        this.committed = c.prepareStatement("SELECT coalesce(max(key), 0), coalesce(max(last_seq), 0),"
                + " coalesce(max(owner), '') FROM tasks WHERE id = ?");
        // A row's seq is its last event's (EventChunk): the first row may begin at or before afterSeq.
        this.events = c.prepareStatement("SELECT e.seq, e.first_seq, e.event FROM tasks t JOIN events e"
                + " ON e.task_key = t.key WHERE t.id = ? AND e.seq > ? ORDER BY e.seq");
        this.context = c.prepareStatement("SELECT state FROM contexts WHERE context_id = ? AND state <> ''");
        this.claimed = c.prepareStatement("SELECT owner FROM contexts WHERE context_id = ? AND owner IS NOT NULL");
        this.taskOwner = c.prepareStatement("SELECT owner FROM tasks WHERE context_id = ? LIMIT 1");
        // The partial index's own condition, word for word, so SQLite uses it.
        this.unsettled = c.prepareStatement("SELECT id, task, last_seq, owner, context_id, state FROM tasks"
                + " WHERE state IN ('TASK_STATE_SUBMITTED', 'TASK_STATE_WORKING')");
    }

    Optional<StoredTask> load(String taskId) throws SQLException {
        task.setString(1, taskId);
        try (ResultSet r = task.executeQuery()) {
            return r.next() ? Optional.of(StoredTask.decode(r.getBytes(1), taskId, r.getString(4), state(r.getString(5)),
                    r.getLong(2), r.getString(3))) : Optional.empty();
        }
    }

    /** The task's key and latest committed sequence number; both 0 for a task the file does not hold. */
    PendingLog.Committed committed(String taskId) throws SQLException {
        committed.setString(1, taskId);
        try (ResultSet r = committed.executeQuery()) {
            r.next();
            long key = r.getLong(1);
            return key == 0 ? PendingLog.Committed.NOTHING : new PendingLog.Committed(key, r.getLong(2), r.getString(3));
        }
    }

    /** The task's committed events numbered above {@code afterSeq}, in order, from plain rows and chunks alike. */
    List<LoggedEvent> eventsAfter(String taskId, long afterSeq) throws SQLException {
        events.setString(1, taskId);
        events.setLong(2, afterSeq);
        List<LoggedEvent> out = new ArrayList<>();
        try (ResultSet r = events.executeQuery()) {
            while (r.next()) {
                long seq = r.getLong(1);
                long firstSeq = r.getLong(2);
                if (r.wasNull()) {
                    out.add(new LoggedEvent(seq, decodeEvent(r.getBytes(3), taskId, seq)));
                } else {
                    EventChunk.decode(r.getBytes(3), firstSeq, seq, afterSeq, taskId, out);
                }
            }
        }
        return out;
    }

    Optional<String> contextState(String contextId) throws SQLException {
        context.setString(1, contextId);
        try (ResultSet r = context.executeQuery()) {
            return r.next() ? Optional.of(r.getString(1)) : Optional.empty();
        }
    }

    /** Who claimed the conversation, else the owner of a task in it (committed ones: flush first). */
    Optional<String> contextOwner(String contextId) throws SQLException {
        for (PreparedStatement s : List.of(claimed, taskOwner)) {
            s.setString(1, contextId);
            try (ResultSet r = s.executeQuery()) {
                if (r.next()) {
                    return Optional.of(r.getString(1));
                }
            }
        }
        return Optional.empty();
    }

    /** The tasks whose latest state is SUBMITTED or WORKING. */
    List<StoredTask> unsettled() throws SQLException {
        List<StoredTask> out = new ArrayList<>();
        try (ResultSet r = unsettled.executeQuery()) {
            while (r.next()) {
                out.add(StoredTask.decode(r.getBytes(2), r.getString(1), r.getString(5), state(r.getString(6)),
                        r.getLong(3), r.getString(4)));
            }
        }
        return out;
    }

    /** The connection itself, for a read prepared per call (push configurations: a few per task). */
    Connection connection() {
        return c;
    }

    TaskPage list(TaskQuery query) throws SQLException {
        return TaskListing.list(c, query);
    }

    /** The state column: the enum's name as written; a name this build does not know reads as unspecified. */
    private static TaskState state(String name) {
        try {
            return TaskState.valueOf(name);
        } catch (IllegalArgumentException e) {
            return TaskState.TASK_STATE_UNSPECIFIED;
        }
    }

    private static StreamResponse decodeEvent(byte[] bytes, String taskId, long seq) {
        try {
            return StreamResponse.parseFrom(bytes);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("logged event " + seq + " of task " + taskId + " no longer decodes", e);
        }
    }

    @Override
    public void close() throws SQLException {
        c.close();
    }
}
