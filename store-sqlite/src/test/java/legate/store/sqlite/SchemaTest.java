package legate.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskEvent;
import legate.a2a.server.task.TaskQuery;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10's migration rules on real files: a file written by an older build is upgraded on open
 * and keeps its tasks; a file written by a newer one is refused with both versions named and is
 * left as it was; a migration that fails leaves the file at its version.
 */
class SchemaTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    private static final Schema NEXT = Schema.CURRENT.plus("db/sqlite-test/V5__probe.sql");

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("legate.db");
    }

    private SqliteTaskStore open(Schema schema) {
        return new SqliteTaskStore(file(), schema, Duration.ofSeconds(5));
    }

    /** A file as the current build leaves it, holding one parked task. */
    private TaskHistory currentFileWithATask() {
        TaskHistory h = new TaskHistory("t1", "c1", T0);
        try (SqliteTaskStore store = open(Schema.CURRENT)) {
            store.append(h.created(), false);
            store.append(h.status(TaskState.TASK_STATE_INPUT_REQUIRED, T0, "Which text?"), true);
        }
        return h;
    }

    @Test
    void aNewFileIsAtTheLatestVersionAndMarkedAsLegates() throws SQLException {
        open(Schema.CURRENT).close();
        assertThat(pragma("user_version")).isEqualTo(Schema.CURRENT.latest());
        assertThat(pragma("application_id")).isEqualTo(Schema.APPLICATION_ID);
        assertThat(pragma("journal_mode")).isEqualTo("wal");
    }

    @Test
    void aFileFromAnOlderBuildIsUpgradedAndKeepsItsTasks() throws SQLException {
        TaskHistory h = currentFileWithATask();
        try (SqliteTaskStore store = open(NEXT)) {
            assertThat(store.load("t1")).contains(new StoredTask(h.task(), 2));
            store.append(h.status(TaskState.TASK_STATE_COMPLETED, T0.plusSeconds(1), "Done."), true);
        }
        assertThat(pragma("user_version")).isEqualTo(5);
        assertThat(scalar("SELECT count(*) FROM probe")).isEqualTo(0);
        assertThat(scalar("SELECT count(*) FROM tasks WHERE probe_note = ''")).isEqualTo(1);
    }

    // README "Security": tasks stored before owners were kept are the anonymous caller's after the upgrade.
    @Test
    void aFileFromBeforeOwnersIsUpgradedAndItsTasksAreTheAnonymousCallers() throws SQLException {
        TaskHistory h = new TaskHistory("t1", "c1", T0);
        try (SqliteTaskStore store = open(Schema.CURRENT)) {
            store.append(h.created(), true);
        }
        // Back to the version-1 schema, as a file written before owners were kept (its one event
        // is a plain row, as version 1 wrote them).
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file()); Statement s = c.createStatement()) {
            s.executeUpdate("ALTER TABLE events DROP COLUMN first_seq");
            s.executeUpdate("DROP INDEX events_by_task");
            s.executeUpdate("CREATE INDEX tasks_by_status_time ON tasks (status_seconds DESC, status_nanos DESC, id)");
            s.executeUpdate("DROP INDEX tasks_by_owner");
            s.executeUpdate("ALTER TABLE tasks DROP COLUMN owner");
            s.executeUpdate("ALTER TABLE contexts DROP COLUMN owner");
            s.executeUpdate("DROP TABLE push_configs");
            s.executeUpdate("PRAGMA user_version = 1");
        }
        try (SqliteTaskStore store = open(Schema.CURRENT)) {
            assertThat(store.load("t1")).contains(new StoredTask(h.task(), 1, ""));
            assertThat(store.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "")).totalSize()).isEqualTo(1);
            assertThat(store.contextOwner("c1")).contains("");
        }
        assertThat(pragma("user_version")).isEqualTo(Schema.CURRENT.latest());
    }

    // Schema version 4 keeps a batch's events of a task in one row; the rows versions 1 to 3 wrote,
    // one per event, must read as they are, and the log go on after them.
    @Test
    void aFileWithOneRowPerEventIsUpgradedAndItsLogGoesOnAfterThem() throws SQLException {
        TaskHistory h = new TaskHistory("t1", "c1", T0);
        List<TaskEvent> old = List.of(h.created(), h.status(TaskState.TASK_STATE_WORKING, T0, "Counting."),
                h.status(TaskState.TASK_STATE_INPUT_REQUIRED, T0.plusMillis(1), "Which text?"));
        Schema third = new Schema(Schema.CURRENT.migrations().subList(0, 3));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file())) {
            third.migrate(c, file());
            // The rows as GroupCommit wrote them up to version 3.
            try (PreparedStatement task = c.prepareStatement("INSERT INTO tasks (key, id, context_id, state,"
                    + " status_seconds, status_nanos, last_seq, task) VALUES (7, 't1', 'c1', ?, ?, ?, 3, ?)");
                 PreparedStatement event = c.prepareStatement("INSERT INTO events (task_key, seq, event) VALUES (7, ?, ?)")) {
                StatusKey time = StatusKey.of(h.task());
                task.setString(1, h.task().getStatus().getState().name());
                task.setLong(2, time.seconds());
                task.setInt(3, time.nanos());
                task.setBytes(4, h.task().toByteArray());
                task.executeUpdate();
                for (TaskEvent e : old) {
                    event.setLong(1, e.seq());
                    event.setBytes(2, e.event().toByteArray());
                    event.executeUpdate();
                }
            }
        }
        assertThat(pragma("user_version")).isEqualTo(3);

        List<TaskEvent> appended = new ArrayList<>(old);
        try (SqliteTaskStore store = open(Schema.CURRENT)) {
            assertThat(store.load("t1")).contains(new StoredTask(h.task(), 3));
            assertThat(store.eventsAfter("t1", 0)).isEqualTo(logged(appended, 0));
            // The reply's turn: its events are the log's next, and most likely one row.
            appended.add(h.status(TaskState.TASK_STATE_WORKING, T0.plusSeconds(1), "Counting again."));
            appended.add(h.artifact("text-stats", "Words: 3."));
            appended.add(h.status(TaskState.TASK_STATE_COMPLETED, T0.plusSeconds(2), "Done."));
            for (TaskEvent e : appended.subList(3, 6)) {
                store.append(e, e.seq() == 6);
            }
        }
        assertThat(pragma("user_version")).isEqualTo(4);
        assertThat(scalar("SELECT count(*) FROM events WHERE task_key = 7 AND seq <= 3 AND first_seq IS NULL"))
                .isEqualTo(3);
        try (SqliteTaskStore store = open(Schema.CURRENT)) {
            for (int k = 0; k <= 6; k++) {
                assertThat(store.eventsAfter("t1", k)).as("after %d", k).isEqualTo(logged(appended, k));
            }
            assertThat(store.load("t1")).contains(new StoredTask(h.task(), 6));
        }
    }

    /** The log entries of {@code events} after {@code afterSeq}. */
    static List<LoggedEvent> logged(List<TaskEvent> events, long afterSeq) {
        return events.stream().filter(e -> e.seq() > afterSeq).map(e -> new LoggedEvent(e.seq(), e.event())).toList();
    }

    @Test
    void aFileFromANewerBuildIsRefusedNamingBothVersionsAndLeftAlone() throws SQLException {
        currentFileWithATask();
        open(NEXT).close();
        assertThatThrownBy(() -> open(Schema.CURRENT)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("legate.db has schema version 5, newer than the 4 this build of Legate knows");
        assertThat(pragma("user_version")).isEqualTo(5);
        // Refusing released the file: the build that knows version 5 opens it.
        try (SqliteTaskStore store = open(NEXT)) {
            assertThat(store.load("t1")).isPresent();
        }
    }

    @Test
    void aMigrationThatFailsLeavesTheFileAtItsVersion() throws SQLException {
        TaskHistory h = currentFileWithATask();
        assertThatThrownBy(() -> open(Schema.CURRENT.plus("db/sqlite-test/V5__broken.sql")))
                .isInstanceOf(SqliteStoreException.class)
                .hasMessageContaining("cannot upgrade")
                .hasMessageContaining("to schema version 5 (db/sqlite-test/V5__broken.sql)");
        assertThat(pragma("user_version")).isEqualTo(4);
        assertThat(scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'")).isZero();
        try (SqliteTaskStore store = open(Schema.CURRENT)) {
            assertThat(store.load("t1")).contains(new StoredTask(h.task(), 2));
        }
    }

    @Test
    void aSqliteFileThatIsNotAStoreIsNotWrittenTo() throws SQLException {
        // DATA_DIR pointed at another program's data: refused, nothing created in it.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file()); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE accounts (id INTEGER)");
        }
        assertThatThrownBy(() -> open(Schema.CURRENT)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is a SQLite file but not a Legate task store");
        assertThat(scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'tasks'")).isZero();
    }

    @Test
    void theBuildKnowsEveryMigrationFileInItsFolder() throws Exception {
        // A V2 file added to db/sqlite but not to Schema.CURRENT would never be applied.
        Path folder = Path.of(Schema.class.getClassLoader().getResource("db/sqlite").toURI());
        try (Stream<Path> files = Files.list(folder)) {
            List<String> found = files.map(p -> "db/sqlite/" + p.getFileName()).sorted().toList();
            assertThat(Schema.CURRENT.migrations()).containsExactlyElementsOf(found);
        }
        assertThatThrownBy(() -> new Schema(List.of("db/sqlite/V2__tasks.sql")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expected V1__description.sql");
    }

    private Object pragma(String name) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file()); Statement s = c.createStatement();
             var r = s.executeQuery("PRAGMA " + name)) {
            r.next();
            return r.getObject(1);
        }
    }

    private long scalar(String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file()); Statement s = c.createStatement()) {
            return SqliteTaskStoreTest.rows(s, sql);
        }
    }
}
