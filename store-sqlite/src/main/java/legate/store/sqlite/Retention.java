package legate.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.TaskState;

/**
 * TASK_RETENTION in the file: terminal tasks whose status time is before a cutoff are deleted with
 * their logs and push configurations, one chunk per transaction, so the appends queued behind a large delete wait for one
 * chunk, not for all of it.
 */
final class Retention {
    /** How many tasks one transaction deletes at most. */
    static final int CHUNK = 1000;
    private static final String SELECT = "SELECT key, id FROM tasks WHERE (status_seconds, status_nanos) < (?, ?)"
            + " AND state IN (" + terminalStates() + ") LIMIT " + CHUNK;

    private Retention() {
    }

    /** Deletes up to {@link #CHUNK} terminal tasks older than {@code before}, logs included; returns how many. */
    static int deleteChunk(Connection c, StatusKey before) throws SQLException {
        List<Long> keys = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        try (PreparedStatement select = c.prepareStatement(SELECT)) {
            select.setLong(1, before.seconds());
            select.setInt(2, before.nanos());
            try (ResultSet r = select.executeQuery()) {
                while (r.next()) {
                    keys.add(r.getLong(1));
                    ids.add(r.getString(2));
                }
            }
        }
        try (PreparedStatement events = c.prepareStatement("DELETE FROM events WHERE task_key = ?");
             PreparedStatement tasks = c.prepareStatement("DELETE FROM tasks WHERE key = ?")) {
            for (long key : keys) {
                events.setLong(1, key);
                events.addBatch();
                tasks.setLong(1, key);
                tasks.addBatch();
            }
            if (!keys.isEmpty()) {
                events.executeBatch();
                tasks.executeBatch();
            }
        }
        // A task's webhooks go with it (README "Push notifications").
        PushConfigs.deleteOfTasks(c, ids);
        return keys.size();
    }

    /** The terminal states as SQL literals, from the one place the protocol's classes are named. */
    static String terminalStates() {
        StringBuilder states = new StringBuilder();
        for (TaskState s : TaskState.values()) {
            if (s != TaskState.UNRECOGNIZED && TaskStates.isTerminal(s)) {
                states.append(states.isEmpty() ? "'" : ", '").append(s.name()).append('\'');
            }
        }
        return states.toString();
    }
}
