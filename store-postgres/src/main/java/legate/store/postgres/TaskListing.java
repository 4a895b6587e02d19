package legate.store.postgres;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
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
 * One ListTasks page read from the tasks table, paged exactly as {@code InMemoryTaskStore} pages:
 * the same filters, the same order, the same tokens, the same total.
 *
 * <p>The count and the page are read in one repeatable-read transaction, so the total matches
 * the page it comes with.
 */
final class TaskListing {
    // PROTOCOL (A2A §3.1.4): newest status first; the id breaks ties so pages never overlap. The
    // status time is compared as (seconds, nanos), the precision the in-memory store sorts on.
    // The id column's "C" collation orders by code point, which is Java's String order for every
    // id without characters beyond U+FFFF (there UTF-16 sorts them before U+E000..U+FFFF).
    private static final String ORDER = " ORDER BY status_seconds DESC, status_nanos DESC, id LIMIT ?";
    private static final String AFTER_CURSOR = "(status_seconds < ? OR (status_seconds = ? AND "
            + "(status_nanos < ? OR (status_nanos = ? AND id > ?))))";

    private final List<String> where = new ArrayList<>();
    private final List<Object> params = new ArrayList<>();

    private TaskListing(TaskQuery q) {
        // A caller lists its own tasks only (README "Security"); a NULL owner is a task stored
        // before owners were kept, the anonymous caller's.
        where.add("coalesce(owner, '') = ?");
        params.add(q.owner());
        if (!q.contextId().isEmpty()) {
            where.add("context_id = ?");
            params.add(q.contextId());
        }
        if (q.status() != TaskState.TASK_STATE_UNSPECIFIED) {
            where.add("state = ?");
            params.add(q.status().getNumber());
        }
        // PROTOCOL (a2a.proto ListTasksRequest.status_timestamp_after): "greater than or equal".
        if (q.statusAfter() != null) {
            where.add("(status_seconds, status_nanos) >= (?, ?)");
            params.add(q.statusAfter().getEpochSecond());
            params.add(q.statusAfter().getNano());
        }
    }

    static TaskPage read(Connection c, TaskQuery q) throws SQLException {
        PageToken after = q.pageToken().isEmpty() ? null : PageToken.decode(q.pageToken());
        if (after != null && after.id().indexOf('\0') >= 0) {
            // No stored id holds U+0000 (PostgreSQL text cannot), so no token names one.
            throw new IllegalArgumentException("invalid pageToken: it was not issued by this server");
        }
        return new TaskListing(q).page(c, q.pageSize(), after);
    }

    private TaskPage page(Connection c, int pageSize, PageToken after) throws SQLException {
        int total;
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM tasks" + whereClause(null))) {
            bind(ps, params);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                total = rs.getInt(1);
            }
        }
        List<Object> pageParams = new ArrayList<>(params);
        if (after != null) {
            Instant t = after.time();
            pageParams.addAll(List.of(t.getEpochSecond(), t.getEpochSecond(), t.getNano(), t.getNano(), after.id()));
        }
        // One more than the page: whether it exists decides the next token, as in memory.
        pageParams.add(pageSize + 1);
        List<Task> tasks = new ArrayList<>(pageSize);
        PageToken last = null;
        boolean more = false;
        int rows = 0;
        try (PreparedStatement ps = c.prepareStatement("SELECT id, status_seconds, status_nanos, task FROM tasks"
                + whereClause(after == null ? null : AFTER_CURSOR) + ORDER)) {
            bind(ps, pageParams);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    // Rows, not tasks: a row left out still takes its place, so the pages stay where they were.
                    if (rows++ == pageSize) {
                        more = true;
                        break;
                    }
                    last = new PageToken(Instant.ofEpochSecond(rs.getLong(2), rs.getInt(3)), rs.getString(1));
                    StoredTask stored = StoredTask.decode(rs.getBytes(4), rs.getString(1));
                    if (stored.readable()) {
                        tasks.add(stored.task());
                    } else {
                        UnreadableTasks.report(stored, "ListTasks leaves it out");
                    }
                }
            }
        }
        return new TaskPage(List.copyOf(tasks), more ? last.encode() : "", total);
    }

    private String whereClause(String extra) {
        List<String> all = new ArrayList<>(where);
        if (extra != null) {
            all.add(extra);
        }
        return all.isEmpty() ? "" : " WHERE " + String.join(" AND ", all);
    }

    private static void bind(PreparedStatement ps, List<Object> values) throws SQLException {
        for (int i = 0; i < values.size(); i++) {
            ps.setObject(i + 1, values.get(i));
        }
    }

    /**
     * A stored task from the columns {@code id, task, last_seq, owner, context_id, state} starting at
     * {@code first}; a stand-in saying why when its bytes no longer decode.
     */
    static StoredTask stored(ResultSet rs, int first) throws SQLException {
        TaskState state = TaskState.forNumber(rs.getInt(first + 5));
        return StoredTask.decode(rs.getBytes(first + 1), rs.getString(first), rs.getString(first + 4),
                state == null ? TaskState.TASK_STATE_UNSPECIFIED : state, rs.getLong(first + 2), rs.getString(first + 3));
    }
}
