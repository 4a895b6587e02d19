package legate.store.postgres;

import com.google.protobuf.InvalidProtocolBufferException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import legate.a2a.server.task.StoredPushConfig;
import lf.a2a.v1.TaskPushNotificationConfig;

/**
 * The push_configs table (V4): each task's webhooks with their delivery progress, one statement per
 * call on a pooled connection. A failure is a {@link PostgresStoreException} naming what was read or written.
 */
final class PushConfigTable {
    private static final String COLUMNS = "p.config, p.delivered_seq, p.attempts, p.first_attempt";

    private final DataSource dataSource;

    PushConfigTable(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    void save(StoredPushConfig p) {
        update("push configuration " + p.id() + " of task " + p.taskId() + " (saving)",
                "INSERT INTO push_configs (task_id, id, config, delivered_seq, attempts, first_attempt)"
                        + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (task_id, id) DO UPDATE SET config = EXCLUDED.config,"
                        + " delivered_seq = EXCLUDED.delivered_seq, attempts = EXCLUDED.attempts,"
                        + " first_attempt = EXCLUDED.first_attempt", ps -> {
                    ps.setString(1, p.taskId());
                    ps.setString(2, p.id());
                    ps.setBytes(3, p.config().toByteArray());
                    bindProgress(ps, 4, p);
                });
    }

    void progress(StoredPushConfig p) {
        update("the progress of push configuration " + p.id() + " of task " + p.taskId(),
                "UPDATE push_configs SET delivered_seq = ?, attempts = ?, first_attempt = ? WHERE task_id = ? AND id = ?",
                ps -> {
                    bindProgress(ps, 1, p);
                    ps.setString(4, p.taskId());
                    ps.setString(5, p.id());
                });
    }

    boolean delete(String taskId, String id) {
        return update("push configuration " + id + " of task " + taskId + " (deleting)",
                "DELETE FROM push_configs WHERE task_id = ? AND id = ?", ps -> {
                    ps.setString(1, taskId);
                    ps.setString(2, id);
                }) > 0;
    }

    List<StoredPushConfig> ofTask(String taskId) {
        return query("the push configurations of task " + taskId, "SELECT " + COLUMNS
                + " FROM push_configs p WHERE p.task_id = ? ORDER BY p.position", ps -> ps.setString(1, taskId));
    }

    /** Those of tasks not terminal (COMPLETED 3, FAILED 4, CANCELED 5, REJECTED 7) or not stored yet, and those with events unsent. */
    List<StoredPushConfig> inFlight() {
        return query("the push configurations in flight", "SELECT " + COLUMNS
                + " FROM push_configs p LEFT JOIN tasks t ON t.id = p.task_id WHERE t.id IS NULL"
                + " OR t.state NOT IN (3, 4, 5, 7) OR p.delivered_seq < t.last_seq ORDER BY p.position", ps -> {
                });
    }

    private static void bindProgress(PreparedStatement ps, int from, StoredPushConfig p) throws SQLException {
        ps.setLong(from, p.deliveredSeq());
        ps.setInt(from + 1, p.attempts());
        if (p.firstAttempt() == null) {
            ps.setNull(from + 2, Types.TIMESTAMP_WITH_TIMEZONE);
        } else {
            ps.setTimestamp(from + 2, Timestamp.from(p.firstAttempt()));
        }
    }

    /** What binds a statement's parameters. */
    @FunctionalInterface
    private interface Binding {
        void bind(PreparedStatement ps) throws SQLException;
    }

    private int update(String what, String sql, Binding binding) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            binding.bind(ps);
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw failed(what, e);
        }
    }

    private List<StoredPushConfig> query(String what, String sql, Binding binding) {
        List<StoredPushConfig> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            binding.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Timestamp first = rs.getTimestamp(4);
                    out.add(new StoredPushConfig(decode(rs.getBytes(1)), rs.getLong(2), rs.getInt(3),
                            first == null ? null : first.toInstant()));
                }
            }
        } catch (SQLException e) {
            throw failed(what, e);
        }
        return out;
    }

    private static TaskPushNotificationConfig decode(byte[] encoded) throws SQLException {
        try {
            return TaskPushNotificationConfig.parseFrom(encoded);
        } catch (InvalidProtocolBufferException e) {
            throw new SQLException("a stored push notification configuration no longer decodes", e);
        }
    }

    private static PostgresStoreException failed(String what, SQLException e) {
        return new PostgresStoreException("PostgreSQL could not read or write " + what + ": " + e.getMessage(), e);
    }
}
