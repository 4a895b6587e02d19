package legate.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import legate.a2a.server.task.PageToken;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskPage;
import legate.a2a.server.task.TaskQuery;
import legate.a2a.server.task.UnreadableTasks;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;

/**
 * ListTasks over the tasks table: the same filters, order, pages, tokens and total as the
 * in-memory store, which defines them. The count and the page are read in one transaction, so the
 * total is the total of the snapshot the page comes from.
 */
final class TaskListing {
    // PROTOCOL (A2A §3.1.4): newest status first; the id breaks ties so pages never overlap. Ids
    // compare as bytes here and as UTF-16 units in Java, which agree for the ASCII UUIDs the server
    // issues (they differ only between a character above U+FFFF and one in U+E000..U+FFFF).
    private static final String ORDER = " ORDER BY status_seconds DESC, status_nanos DESC, id LIMIT ?";

    private TaskListing() {
    }

    static TaskPage list(Connection c, TaskQuery query) throws SQLException {
        PageToken after = query.pageToken().isEmpty() ? null : PageToken.decode(query.pageToken());
        List<Object> args = new ArrayList<>();
        String where = where(query, args);
        try (Statement tx = c.createStatement()) {
            tx.executeUpdate("BEGIN");
            try {
                int total = count(c, where, args);
                TaskPage page = page(c, where, args, after, query.pageSize(), total);
                tx.executeUpdate("COMMIT");
                return page;
            } catch (SQLException | RuntimeException e) {
                tx.executeUpdate("ROLLBACK");
                throw e;
            }
        }
    }

    /** The statements {@link #list} runs for {@code query}, the count and then the page (for a test of their plans). */
    static List<String> statements(TaskQuery query) {
        String where = where(query, new ArrayList<>());
        return List.of("SELECT count(*)" + where, pageSql(where, !query.pageToken().isEmpty()));
    }

    /** The FROM and WHERE clauses of {@code query}, adding their arguments to {@code args}. */
    private static String where(TaskQuery query, List<Object> args) {
        // A caller lists its own tasks only (README "Security"). Within a conversation the owner is
        // only checked (the unary + keeps SQLite from seeking on it): the context index finds its
        // few tasks. DEFECT: seeking on the owner read every task of the caller's to find them, and
        // without authentication every task is the anonymous caller's.
        StringBuilder where = new StringBuilder(query.contextId().isEmpty() ? " FROM tasks WHERE owner = ?"
                : " FROM tasks WHERE +owner = ?");
        args.add(query.owner());
        if (!query.contextId().isEmpty()) {
            where.append(" AND context_id = ?");
            args.add(query.contextId());
        }
        if (query.status() != TaskState.TASK_STATE_UNSPECIFIED) {
            where.append(" AND state = ?");
            args.add(query.status().name());
        }
        if (query.statusAfter() != null) {
            // PROTOCOL (a2a.proto ListTasksRequest.status_timestamp_after): "greater than or equal".
            StatusKey from = StatusKey.of(query.statusAfter());
            where.append(" AND (status_seconds, status_nanos) >= (?, ?)");
            args.add(from.seconds());
            args.add(from.nanos());
        }
        return where.toString();
    }

    private static String pageSql(String where, boolean afterToken) {
        StringBuilder sql = new StringBuilder("SELECT id, status_seconds, status_nanos, task").append(where);
        if (afterToken) {
            // The first condition lets the index seek to the token's time; the second drops the
            // tasks of that same instant that the previous page already showed.
            sql.append(" AND (status_seconds, status_nanos) <= (?, ?)")
                    .append(" AND NOT (status_seconds = ? AND status_nanos = ? AND id <= ?)");
        }
        return sql.append(ORDER).toString();
    }

    private static int count(Connection c, CharSequence where, List<Object> args) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT count(*)" + where)) {
            bind(s, args);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? r.getInt(1) : 0;
            }
        }
    }

    private static TaskPage page(Connection c, String where, List<Object> args, PageToken after, int size,
                                 int total) throws SQLException {
        List<Object> pageArgs = new ArrayList<>(args);
        if (after != null) {
            StatusKey key = StatusKey.of(after.time());
            pageArgs.addAll(List.of(key.seconds(), key.nanos(), key.seconds(), key.nanos(), after.id()));
        }
        pageArgs.add(size + 1);
        try (PreparedStatement s = c.prepareStatement(pageSql(where, after != null))) {
            bind(s, pageArgs);
            List<Task> tasks = new ArrayList<>(size);
            PageToken last = null;
            boolean more = false;
            int rows = 0;
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    // Rows, not tasks: a row left out still takes its place, so the pages stay where they were.
                    if (rows++ == size) {
                        more = true;
                        break;
                    }
                    last = new PageToken(Instant.ofEpochSecond(r.getLong(2), r.getInt(3)), r.getString(1));
                    StoredTask stored = StoredTask.decode(r.getBytes(4), last.id());
                    if (stored.readable()) {
                        tasks.add(stored.task());
                    } else {
                        UnreadableTasks.report(stored, "ListTasks leaves it out");
                    }
                }
            }
            return new TaskPage(List.copyOf(tasks), more ? last.encode() : "", total);
        }
    }

    private static void bind(PreparedStatement s, List<Object> args) throws SQLException {
        for (int i = 0; i < args.size(); i++) {
            s.setObject(i + 1, args.get(i));
        }
    }
}
