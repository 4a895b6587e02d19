package legate.store.sqlite;

import com.google.protobuf.InvalidProtocolBufferException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import legate.a2a.server.task.StoredPushConfig;
import lf.a2a.v1.TaskPushNotificationConfig;

/**
 * The push_configs table (V3): each task's webhooks with their delivery progress. Writes run on the
 * writer's connection inside its batches, reads on a reader's; each statement is prepared per call,
 * since these are few per task, not per event.
 */
final class PushConfigs {
    private static final String COLUMNS = "p.config, p.delivered_seq, p.attempts, p.first_attempt_ms";

    private PushConfigs() {
    }

    /** Inserts or replaces the configuration; a replaced one keeps its place in the order. */
    static int save(Connection c, StoredPushConfig p) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO push_configs"
                + " (task_id, id, config, delivered_seq, attempts, first_attempt_ms) VALUES (?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (task_id, id) DO UPDATE SET config = excluded.config,"
                + " delivered_seq = excluded.delivered_seq, attempts = excluded.attempts,"
                + " first_attempt_ms = excluded.first_attempt_ms")) {
            s.setString(1, p.taskId());
            s.setString(2, p.id());
            s.setBytes(3, p.config().toByteArray());
            bindProgress(s, 4, p);
            return s.executeUpdate();
        }
    }

    /** Records the progress of a configuration that still exists. */
    static int progress(Connection c, StoredPushConfig p) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE push_configs SET delivered_seq = ?, attempts = ?,"
                + " first_attempt_ms = ? WHERE task_id = ? AND id = ?")) {
            bindProgress(s, 1, p);
            s.setString(4, p.taskId());
            s.setString(5, p.id());
            return s.executeUpdate();
        }
    }

    private static void bindProgress(PreparedStatement s, int from, StoredPushConfig p) throws SQLException {
        s.setLong(from, p.deliveredSeq());
        s.setInt(from + 1, p.attempts());
        if (p.firstAttempt() == null) {
            s.setNull(from + 2, Types.INTEGER);
        } else {
            s.setLong(from + 2, p.firstAttempt().toEpochMilli());
        }
    }

    static boolean delete(Connection c, String taskId, String id) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM push_configs WHERE task_id = ? AND id = ?")) {
            s.setString(1, taskId);
            s.setString(2, id);
            return s.executeUpdate() > 0;
        }
    }

    /** The configurations of the tasks retention deletes go with them. */
    static void deleteOfTasks(Connection c, List<String> taskIds) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM push_configs WHERE task_id = ?")) {
            for (String id : taskIds) {
                s.setString(1, id);
                s.addBatch();
            }
            if (!taskIds.isEmpty()) {
                s.executeBatch();
            }
        }
    }

    static List<StoredPushConfig> ofTask(Connection c, String taskId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS
                + " FROM push_configs p WHERE p.task_id = ? ORDER BY p.rowid")) {
            s.setString(1, taskId);
            return read(s);
        }
    }

    /** Those of tasks not terminal (or not stored yet), and those with events after their cursor. */
    static List<StoredPushConfig> inFlight(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS
                + " FROM push_configs p LEFT JOIN tasks t ON t.id = p.task_id WHERE t.id IS NULL"
                + " OR t.state NOT IN (" + Retention.terminalStates() + ") OR p.delivered_seq < t.last_seq"
                + " ORDER BY p.rowid")) {
            return read(s);
        }
    }

    private static List<StoredPushConfig> read(PreparedStatement s) throws SQLException {
        List<StoredPushConfig> out = new ArrayList<>();
        try (ResultSet r = s.executeQuery()) {
            while (r.next()) {
                TaskPushNotificationConfig config;
                try {
                    config = TaskPushNotificationConfig.parseFrom(r.getBytes(1));
                } catch (InvalidProtocolBufferException e) {
                    throw new SQLException("a stored push notification configuration no longer decodes", e);
                }
                long first = r.getLong(4);
                Instant firstAttempt = r.wasNull() ? null : Instant.ofEpochMilli(first);
                out.add(new StoredPushConfig(config, r.getLong(2), r.getInt(3), firstAttempt));
            }
        }
        return out;
    }
}
