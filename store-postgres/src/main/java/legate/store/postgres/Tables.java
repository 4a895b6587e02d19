package legate.store.postgres;

import com.google.protobuf.InvalidProtocolBufferException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskPage;
import legate.a2a.server.task.TaskQuery;
import lf.a2a.v1.StreamResponse;

/**
 * The store's tables as they are read, and changed outside the group commit: one statement per
 * call on a pooled connection, what is committed only (the pending appends are
 * {@link PendingTasks}' business). A failure is a {@link PostgresStoreException} naming what was
 * being read and the database's reason.
 */
final class Tables {
    /** What {@link TaskListing#stored} reads a task from, in its order. */
    static final String TASK_COLUMNS = "id, task, last_seq, coalesce(owner, ''), context_id, state";

    private final DataSource dataSource;

    Tables(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    Optional<StoredTask> task(String taskId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT " + TASK_COLUMNS + " FROM tasks WHERE id = ?")) {
            ps.setString(1, taskId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(TaskListing.stored(rs, 1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw failed("task " + taskId, e);
        }
    }

    /** The sequence number of the task's latest committed event; 0 for a task not stored. */
    long lastSeq(String taskId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT last_seq FROM tasks WHERE id = ?")) {
            ps.setString(1, taskId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        } catch (SQLException e) {
            throw failed("the last event of task " + taskId, e);
        }
    }

    /** The task's committed events above {@code afterSeq}, in order. */
    List<LoggedEvent> events(String taskId, long afterSeq) {
        List<LoggedEvent> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT seq, event FROM events WHERE task_id = ? AND seq > ? ORDER BY seq")) {
            ps.setString(1, taskId);
            ps.setLong(2, afterSeq);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new LoggedEvent(rs.getLong(1), decodeEvent(taskId, rs.getBytes(2))));
                }
            }
        } catch (SQLException e) {
            throw failed("the events of task " + taskId, e);
        }
        return out;
    }

    TaskPage page(TaskQuery query) {
        try (Connection c = dataSource.getConnection()) {
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setReadOnly(true);
            c.setAutoCommit(false);
            try {
                return TaskListing.read(c, query);
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            throw failed("the task list", e);
        }
    }

    /** The tasks whose state is SUBMITTED (1) or WORKING (2). */
    List<StoredTask> unsettled() {
        List<StoredTask> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT " + TASK_COLUMNS + " FROM tasks WHERE state IN (1, 2)");
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(TaskListing.stored(rs, 1));
            }
        } catch (SQLException e) {
            throw failed("the unsettled tasks", e);
        }
        return out;
    }

    /** Deletes the COMPLETED, FAILED, CANCELED and REJECTED tasks older than {@code cutoff}. */
    int deleteTerminalBefore(Instant cutoff) {
        // The events go with their task (ON DELETE CASCADE), its push configurations in the same statement.
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("WITH gone AS (DELETE FROM tasks WHERE state IN (3, 4, 5, 7)"
                     + " AND (status_seconds, status_nanos) < (?, ?) RETURNING id),"
                     + " webhooks AS (DELETE FROM push_configs WHERE task_id IN (SELECT id FROM gone))"
                     + " SELECT count(*) FROM gone")) {
            ps.setLong(1, cutoff.getEpochSecond());
            ps.setInt(2, cutoff.getNano());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        } catch (SQLException e) {
            throw failed("the terminal tasks before " + cutoff + " (deleting)", e);
        }
    }

    /**
     * Who claimed the conversation, else the owner of a task in it. contexts.owner is NULL for a row
     * kept only for an executor's state; tasks.owner is NULL for a task stored before owners were
     * kept, which was the anonymous caller's.
     */
    Optional<String> contextOwner(String contextId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement claimed = c.prepareStatement(
                     "SELECT owner FROM contexts WHERE context_id = ? AND owner IS NOT NULL");
             PreparedStatement tasks = c.prepareStatement(
                     "SELECT coalesce(owner, '') FROM tasks WHERE context_id = ? LIMIT 1")) {
            for (PreparedStatement ps : List.of(claimed, tasks)) {
                ps.setString(1, contextId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        return Optional.of(rs.getString(1));
                    }
                }
            }
            return Optional.empty();
        } catch (SQLException e) {
            throw failed("the owner of context " + contextId, e);
        }
    }

    /** Claims the conversation for {@code owner} unless someone has; returns the owner in force. */
    String claimContext(String contextId, String owner) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO contexts AS x (context_id, state, owner)"
                     + " VALUES (?, '', ?) ON CONFLICT (context_id) DO UPDATE SET owner = coalesce(x.owner, EXCLUDED.owner)"
                     + " RETURNING x.owner")) {
            ps.setString(1, contextId);
            ps.setString(2, owner);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        } catch (SQLException e) {
            throw failed("the owner of context " + contextId + " (claiming)", e);
        }
    }

    Optional<String> contextState(String contextId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT state FROM contexts WHERE context_id = ? AND state <> ''")) {
            ps.setString(1, contextId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw failed("the state of context " + contextId, e);
        }
    }

    void saveContextState(String contextId, String state) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO contexts (context_id, state) VALUES (?, ?)"
                     + " ON CONFLICT (context_id) DO UPDATE SET state = EXCLUDED.state, updated_at = now()")) {
            ps.setString(1, contextId);
            ps.setString(2, state);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw failed("the state of context " + contextId + " (saving)", e);
        }
    }

    private static StreamResponse decodeEvent(String taskId, byte[] encoded) {
        try {
            return StreamResponse.parseFrom(encoded);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("a logged event of task " + taskId + " no longer decodes", e);
        }
    }

    private static PostgresStoreException failed(String what, SQLException e) {
        return new PostgresStoreException("PostgreSQL could not read or write " + what + ": " + e.getMessage(), e);
    }
}
