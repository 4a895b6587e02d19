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
 *
 * <p>It walks {@code tasks_by_owner} (owner, then status time), the index every ListTasks uses,
 * owner by owner: a second index ordered by status time alone cost every status change a write
 * and served only this sweep (dropped in schema version 4).
 */
final class Retention {
    /** How many tasks one transaction deletes at most. */
    static final int CHUNK = 1000;
    /**
     * The owner after {@code ?}, the lowest with {@code ''}: one seek into the owner index each,
     * where {@code SELECT DISTINCT owner} would read every entry of it.
     */
    static final String FIRST_OWNER = "SELECT owner FROM tasks ORDER BY owner LIMIT 1";
    static final String NEXT_OWNER = "SELECT owner FROM tasks WHERE owner > ? ORDER BY owner LIMIT 1";
    /** One owner's oldest terminal tasks before the cutoff, read from the old end of its index range. */
    static final String OLD_TERMINAL = "SELECT key, id FROM tasks WHERE owner = ?"
            + " AND (status_seconds, status_nanos) < (?, ?) AND state IN (" + terminalStates() + ")"
            + " ORDER BY status_seconds, status_nanos LIMIT ?";

    private Retention() {
    }

    /** Deletes up to {@link #CHUNK} terminal tasks older than {@code before}, logs included; returns how many. */
    static int deleteChunk(Connection c, StatusKey before) throws SQLException {
        List<Long> keys = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        try (PreparedStatement first = c.prepareStatement(FIRST_OWNER);
             PreparedStatement next = c.prepareStatement(NEXT_OWNER);
             PreparedStatement select = c.prepareStatement(OLD_TERMINAL)) {
            String owner = owner(first);
            while (owner != null && keys.size() < CHUNK) {
                select.setString(1, owner);
                select.setLong(2, before.seconds());
                select.setInt(3, before.nanos());
                select.setInt(4, CHUNK - keys.size());
                try (ResultSet r = select.executeQuery()) {
                    while (r.next()) {
                        keys.add(r.getLong(1));
                        ids.add(r.getString(2));
                    }
                }
                next.setString(1, owner);
                owner = owner(next);
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

    /** The owner {@code query} finds; null past the last. */
    private static String owner(PreparedStatement query) throws SQLException {
        try (ResultSet r = query.executeQuery()) {
            return r.next() ? r.getString(1) : null;
        }
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
