package legate.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import legate.store.sqlite.WriteOp.Append;
import legate.store.sqlite.WriteOp.Job;
import lf.a2a.v1.Task;

/**
 * The writer: one thread, one connection, one transaction per batch of the {@link WriteQueue}.
 * Each task is written once per batch, as it stands after its last event in the batch, and so are
 * its events: one row holding all of them (an {@link EventChunk}), so a turn's five events cost one
 * task row and one event row, not five of each. After the commit the events
 * leave the {@link PendingLogs} and the durable appenders are released, in that order, so a
 * released caller's read finds the row.
 *
 * <p>A batch that fails (disk full, the file locked by another program past the busy timeout) is
 * rolled back whole: its durable appenders get the error, its events leave memory, and the logs
 * they belonged to are lost, so an event queued behind them is dropped rather than written after
 * a gap. The next batch starts afresh; the store stays usable.
 */
final class GroupCommit implements Runnable {
    private static final String INSERT_TASK = "INSERT INTO tasks (state, status_seconds, status_nanos, last_seq, task,"
            + " key, id, context_id, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String UPDATE_TASK = "UPDATE tasks SET state = ?, status_seconds = ?, status_nanos = ?,"
            + " last_seq = ?, task = ? WHERE key = ?";

    private final DatabaseFile file;
    private final Connection c;
    private final WriteQueue queue;
    private final PendingLogs pending;
    private final Checkpointer checkpointer;
    private final Statement control;
    private final PreparedStatement insertEvent;
    private final PreparedStatement insertTask;
    private final PreparedStatement updateTask;
    /** The key the next new task gets; the writer is the only one to insert tasks. */
    private long nextKey;
    /** The appends of each task in the batch since rows were last written, in sequence order. */
    private final Map<PendingLog, List<Append>> rows = new IdentityHashMap<>();
    /** The logs whose commit was already settled, while settling a batch. */
    private final Set<PendingLog> settled = Collections.newSetFromMap(new IdentityHashMap<>());

    GroupCommit(DatabaseFile file, Connection c, WriteQueue queue, PendingLogs pending, Checkpointer checkpointer)
            throws SQLException {
        this.file = file;
        this.c = c;
        this.queue = queue;
        this.pending = pending;
        this.checkpointer = checkpointer;
        this.control = c.createStatement();
        this.insertEvent = c.prepareStatement("INSERT INTO events (task_key, seq, first_seq, event) VALUES (?, ?, ?, ?)");
        this.insertTask = c.prepareStatement(INSERT_TASK);
        this.updateTask = c.prepareStatement(UPDATE_TASK);
        try (ResultSet r = control.executeQuery("SELECT coalesce(max(key), 0) + 1 FROM tasks")) {
            r.next();
            nextKey = r.getLong(1);
        }
    }

    @Override
    public void run() {
        try {
            List<WriteOp> batch;
            while ((batch = queue.take()) != null) {
                write(batch);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            abandon();
        }
    }

    /**
     * The writer stopped for good (closed, interrupted, or an Error such as running out of
     * memory): what is still queued is failed, and later appends are refused, rather than leaving
     * a durable appender waiting for a commit that will never come.
     */
    private void abandon() {
        queue.close();
        SqliteStoreException stopped = new SqliteStoreException("the writer of " + file + " has stopped", null);
        List<WriteOp> left;
        while ((left = queue.drain()) != null) {
            fail(left, stopped);
        }
    }

    private void write(List<WriteOp> batch) {
        try {
            // IMMEDIATE: the write lock is taken here, waiting out the busy timeout if another
            // program holds it. A deferred transaction would fail at its first write at once.
            control.executeUpdate("BEGIN IMMEDIATE");
            for (WriteOp op : batch) {
                switch (op) {
                    case Append a -> insert(a);
                    case Job<?> j -> {
                        // A job sees every append queued before it, task and event rows included
                        // (retention deletes a log whole): a task's events may take two rows here.
                        writeRows();
                        j.run(c);
                    }
                }
            }
            writeRows();
            control.executeUpdate("COMMIT");
            checkpointer.committed();
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
        PendingLog log = a.log();
        if (log.lost() != null) {
            return;
        }
        if (log.key == 0) {
            log.key = nextKey++;
        }
        List<Append> appends = rows.get(log);
        if (appends == null) {
            appends = new ArrayList<>(4);
            rows.put(log, appends);
        }
        appends.add(a);
    }

    private void writeRows() throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        for (List<Append> appends : rows.values()) {
            Append last = appends.getLast();
            insertEvent.setLong(1, last.log().key);
            insertEvent.setLong(2, last.event().seq());
            if (appends.size() == 1) {
                // A lone event stays a plain row, as before version 4: its encoding goes in as it
                // is, where a chunk of one would cost the writer a copy and the reader a wrapper.
                insertEvent.setNull(3, Types.INTEGER);
                insertEvent.setBytes(4, last.encoded());
            } else {
                insertEvent.setLong(3, appends.getFirst().event().seq());
                insertEvent.setBytes(4, EventChunk.encode(appends));
            }
            // Batched: in its autocommit mode the driver tries a BEGIN after every statement it
            // executes alone, to see whether a transaction is open; microseconds per row.
            insertEvent.addBatch();
        }
        insertEvent.executeBatch();
        boolean inserts = false;
        boolean updates = false;
        for (List<Append> appends : rows.values()) {
            Append a = appends.getLast();
            Task t = a.event().task();
            StatusKey time = StatusKey.of(t);
            PreparedStatement row = a.log().inFile ? updateTask : insertTask;
            row.setString(1, t.getStatus().getState().name());
            row.setLong(2, time.seconds());
            row.setInt(3, time.nanos());
            row.setLong(4, a.event().seq());
            row.setBytes(5, a.encodedTask() != null ? a.encodedTask() : t.toByteArray());
            row.setLong(6, a.log().key);
            if (!a.log().inFile) {
                row.setString(7, t.getId());
                row.setString(8, t.getContextId());
                row.setString(9, a.log().owner());
            }
            row.addBatch();
            inserts |= row == insertTask;
            updates |= row == updateTask;
            a.log().inFile = true;
        }
        if (inserts) {
            insertTask.executeBatch();
        }
        if (updates) {
            updateTask.executeBatch();
        }
        rows.clear();
    }

    /** Committed: the events leave memory first, then the waiting appenders and jobs are released. */
    private void settle(List<WriteOp> batch) {
        for (int i = batch.size() - 1; i >= 0; i--) {
            // From the end: a log's last append in the batch carries its highest sequence number.
            if (batch.get(i) instanceof Append a && a.log().lost() == null && settled.add(a.log())) {
                pending.committed(a.log(), a.event().seq());
            }
        }
        settled.clear();
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
            insertEvent.clearBatch();
            insertTask.clearBatch();
            updateTask.clearBatch();
            control.executeUpdate("ROLLBACK");
        } catch (SQLException e) {
            // No transaction was open (BEGIN itself failed), or SQLite rolled it back already.
        }
    }

    /**
     * Folds the write-ahead log into the file, so a closed store is one file again, and closes the
     * connection. Called once the writer's thread and the checkpointer's have ended.
     */
    void close() {
        try {
            control.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        } catch (SQLException e) {
            // The log stays beside the file and is folded in when it is next opened.
        }
        try {
            c.close();
        } catch (SQLException e) {
            // Closing releases the file either way.
        }
    }
}
