package legate.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import legate.store.sqlite.WriteOp.Append;
import legate.store.sqlite.WriteOp.Job;
import lf.a2a.v1.Task;

/**
 * The writer: one thread, one connection, one transaction per batch of the {@link WriteQueue}.
 * Each event is inserted; each task is written once per batch, as it stands after its last event
 * in the batch (a turn's five events cost one task row, not five). After the commit the events
 * leave the {@link PendingLogs} and the durable appenders are released, in that order, so a
 * released caller's read finds the row.
 *
 * <p>A batch that fails (disk full, the file locked by another program past the busy timeout) is
 * rolled back whole: its durable appenders get the error, its events leave memory, and the logs
 * they belonged to are lost, so an event queued behind them is dropped rather than written after
 * a gap. The next batch starts afresh; the store stays usable.
 */
final class GroupCommit implements Runnable {
    private static final String UPSERT_TASK = """
            INSERT INTO tasks (id, context_id, state, status_seconds, status_nanos, last_seq, task)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
              status_seconds = excluded.status_seconds, status_nanos = excluded.status_nanos,
              last_seq = excluded.last_seq, task = excluded.task""";

    private final DatabaseFile file;
    private final Connection c;
    private final WriteQueue queue;
    private final PendingLogs pending;
    private final Statement control;
    private final PreparedStatement insertEvent;
    private final PreparedStatement upsertTask;
    /** The last append of each task in the batch so far: whose task row to write. */
    private final Map<PendingLog, Append> rows = new IdentityHashMap<>();

    GroupCommit(DatabaseFile file, Connection c, WriteQueue queue, PendingLogs pending) throws SQLException {
        this.file = file;
        this.c = c;
        this.queue = queue;
        this.pending = pending;
        this.control = c.createStatement();
        this.insertEvent = c.prepareStatement("INSERT INTO events (task_id, seq, event) VALUES (?, ?, ?)");
        this.upsertTask = c.prepareStatement(UPSERT_TASK);
    }

    @Override
    public void run() {
        try {
            List<WriteOp> batch;
            while ((batch = queue.take()) != null) {
                write(batch);
            }
            checkpoint();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeConnection();
        }
    }

    private void write(List<WriteOp> batch) {
        try {
            control.executeUpdate("BEGIN IMMEDIATE");
            for (WriteOp op : batch) {
                switch (op) {
                    case Append a -> insert(a);
                    case Job<?> j -> {
                        // A job sees every append queued before it, task rows included.
                        writeRows();
                        j.run(c);
                    }
                }
            }
            writeRows();
            control.executeUpdate("COMMIT");
        } catch (SQLException | RuntimeException e) {
            rows.clear();
            rollback();
            fail(batch, new SqliteStoreException("could not commit " + batch.size() + " writes to " + file
                    + "; they are lost, the store goes on: " + e.getMessage(), e));
            return;
        }
        settle(batch);
    }

    private void insert(Append a) throws SQLException {
        if (a.log().lost() != null) {
            return;
        }
        insertEvent.setString(1, a.log().taskId);
        insertEvent.setLong(2, a.event().seq());
        insertEvent.setBytes(3, a.encoded());
        insertEvent.executeUpdate();
        rows.put(a.log(), a);
    }

    private void writeRows() throws SQLException {
        for (Append a : rows.values()) {
            Task t = a.event().task();
            StatusKey time = StatusKey.of(t);
            upsertTask.setString(1, t.getId());
            upsertTask.setString(2, t.getContextId());
            upsertTask.setString(3, t.getStatus().getState().name());
            upsertTask.setLong(4, time.seconds());
            upsertTask.setInt(5, time.nanos());
            upsertTask.setLong(6, a.event().seq());
            upsertTask.setBytes(7, t.toByteArray());
            upsertTask.executeUpdate();
        }
        rows.clear();
    }

    /** Committed: the events leave memory first, then the waiting appenders and jobs are released. */
    private void settle(List<WriteOp> batch) {
        for (WriteOp op : batch) {
            if (op instanceof Append a && a.log().lost() == null) {
                pending.committed(a.log(), a.event().seq());
            }
        }
        for (WriteOp op : batch) {
            switch (op) {
                case Append a -> {
                    if (a.done() != null) {
                        Throwable lost = a.log().lost();
                        if (lost == null) {
                            a.done().complete(null);
                        } else {
                            a.done().completeExceptionally(lost);
                        }
                    }
                }
                case Job<?> j -> j.committed();
            }
        }
    }

    private void fail(List<WriteOp> batch, SqliteStoreException failure) {
        for (WriteOp op : batch) {
            switch (op) {
                case Append a -> {
                    if (a.log().lost() == null) {
                        pending.lose(a.log(), failure);
                    }
                    if (a.done() != null) {
                        a.done().completeExceptionally(a.log().lost());
                    }
                }
                case Job<?> j -> j.done.completeExceptionally(failure);
            }
        }
    }

    private void rollback() {
        try {
            control.executeUpdate("ROLLBACK");
        } catch (SQLException e) {
            // No transaction was open (BEGIN itself failed), or SQLite rolled it back already.
        }
    }

    /** Folds the write-ahead log into the file, so a closed store is one file again. */
    private void checkpoint() {
        try {
            control.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        } catch (SQLException e) {
            // The log stays beside the file and is folded in when it is next opened.
        }
    }

    private void closeConnection() {
        try {
            c.close();
        } catch (SQLException e) {
            // Closing releases the file either way.
        }
    }
}
