package legate.store.sqlite;

import static legate.store.sqlite.SqliteTaskStoreTest.owned;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import legate.a2a.server.task.TaskQuery;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TASK_RETENTION over the owner index (schema version 4 dropped the index by status time alone):
 * every owner's old terminal tasks go, over as many chunks as it takes, and neither the sweep nor
 * ListTasks reads the whole table to find its rows.
 */
class RetentionTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    private static final List<String> OWNERS = List.of("", "alice", "bob");
    private static final TaskState[] ENDS = {TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED,
        TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED};

    @TempDir
    Path dir;

    @Test
    void oldTerminalTasksOfEveryOwnerGoOverSeveralChunks() {
        // 700 old terminal tasks per owner: the chunks of 1000 end inside alice's and bob's, and
        // the sweep must pick each owner up where the last chunk stopped.
        try (SqliteTaskStore store = SqliteTaskStore.open(dir)) {
            for (int i = 0; i < 2_100; i++) {
                String owner = OWNERS.get(i % OWNERS.size());
                TaskHistory h = new TaskHistory("old-" + i, "c", T0.plusMillis(i));
                store.append(owned(h.created(), owner), false);
                store.append(owned(h.status(ENDS[i % ENDS.length], T0.plusMillis(i), "Over."), owner), false);
            }
            for (String owner : OWNERS) {
                TaskHistory parked = new TaskHistory("parked-" + owner, "c", T0);
                store.append(owned(parked.created(), owner), false);
                store.append(owned(parked.status(TaskState.TASK_STATE_INPUT_REQUIRED, T0, "Which?"), owner), false);
                TaskHistory recent = new TaskHistory("recent-" + owner, "c", T0.plusSeconds(3600));
                store.append(owned(recent.created(), owner), false);
                store.append(owned(recent.status(TaskState.TASK_STATE_COMPLETED, T0.plusSeconds(3600), "Done."),
                        owner), false);
            }
            assertThat(store.deleteTerminalBefore(T0.plusSeconds(60))).isEqualTo(2_100);
            for (String owner : OWNERS) {
                assertThat(store.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "", owner))
                        .tasks()).extracting(Task::getId).containsExactly("recent-" + owner, "parked-" + owner);
            }
            assertThat(store.eventsAfter("old-1", 0)).isEmpty();
            assertThat(store.deleteTerminalBefore(T0.plusSeconds(60))).isZero();
        }
    }

    @Test
    void theSweepAndListTasksReadIndexesNotTheTable() throws SQLException {
        SqliteTaskStore.open(dir).close();
        List<String> statements = new ArrayList<>(List.of(Retention.FIRST_OWNER, Retention.NEXT_OWNER,
                Retention.OLD_TERMINAL));
        for (TaskQuery q : List.of(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "", "alice"),
                new TaskQuery("", TaskState.TASK_STATE_COMPLETED, null, 10, "", "alice"),
                new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, T0, 10, "a token", "alice"),
                new TaskQuery("c1", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "", "alice"))) {
            statements.addAll(TaskListing.statements(q));
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("legate.db"));
             Statement s = c.createStatement()) {
            for (String sql : statements) {
                List<String> plan = plan(s, sql);
                assertThat(plan).as(sql).noneMatch(step -> step.startsWith("SCAN tasks") && !step.contains(" INDEX "));
                assertThat(plan).as(sql).anyMatch(step -> step.contains(" INDEX tasks_by_"));
            }
            // A conversation's tasks come from the context index, not from every task of the owner.
            for (String sql : TaskListing.statements(new TaskQuery("c1", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "",
                    "alice"))) {
                assertThat(plan(s, sql)).as(sql).anyMatch(step -> step.contains("INDEX tasks_by_context"));
            }
            // The sweep takes each owner's oldest straight from the index, with no sort.
            assertThat(plan(s, Retention.OLD_TERMINAL)).noneMatch(step -> step.contains("TEMP B-TREE"));
        }
    }

    private static List<String> plan(Statement s, String sql) throws SQLException {
        List<String> steps = new ArrayList<>();
        try (ResultSet r = s.executeQuery("EXPLAIN QUERY PLAN " + sql)) {
            while (r.next()) {
                steps.add(r.getString("detail"));
            }
        }
        return steps;
    }
}
