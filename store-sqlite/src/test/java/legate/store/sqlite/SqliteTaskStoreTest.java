package legate.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskEvent;
import legate.a2a.server.task.TaskQuery;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code TaskStore} contract on a real file: what is appended reads back (before and after
 * its commit, and after a reopen), sequence numbers are checked for the caller, retention takes a
 * task's log with it, and a restart finds the runs it interrupted.
 */
class SqliteTaskStoreTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00.123Z");
    /** How many events the file holds for the task id that follows: a row holds one, or first_seq to seq. */
    static final String EVENTS_OF = "SELECT coalesce(sum(e.seq - coalesce(e.first_seq, e.seq) + 1), 0)"
            + " FROM events e JOIN tasks t ON e.task_key = t.key WHERE t.id = ";

    @TempDir
    Path dir;
    private final List<SqliteTaskStore> opened = new ArrayList<>();

    private SqliteTaskStore open() {
        SqliteTaskStore store = SqliteTaskStore.open(dir);
        opened.add(store);
        return store;
    }

    @AfterEach
    void closeStores() {
        opened.forEach(SqliteTaskStore::close);
    }

    /** Appends a whole turn: created, working, an artifact, completed (durable, as the run marks it). */
    private static TaskHistory completedTurn(SqliteTaskStore store, String taskId, String contextId, Instant at) {
        TaskHistory h = new TaskHistory(taskId, contextId, at);
        store.append(h.created(), false);
        store.append(h.status(TaskState.TASK_STATE_WORKING, at.plusMillis(1), "Counting."), false);
        store.append(h.artifact("text-stats", "Words: 3."), false);
        store.append(h.status(TaskState.TASK_STATE_COMPLETED, at.plusMillis(2), "Done."), true);
        return h;
    }

    @Test
    void aTaskAndItsLogReadBackInOrder() {
        // The contract: the task after its latest event, and the log after any sequence number.
        SqliteTaskStore store = open();
        TaskHistory h = new TaskHistory("t1", "c1", T0);
        List<TaskEvent> appended = List.of(h.created(), h.status(TaskState.TASK_STATE_WORKING, T0, "Counting."),
                h.artifact("a", "x"), h.status(TaskState.TASK_STATE_COMPLETED, T0.plusMillis(5), "Done."));
        for (TaskEvent e : appended) {
            store.append(e, false);
        }
        assertThat(store.load("t1")).contains(new StoredTask(h.task(), 4));
        assertThat(store.eventsAfter("t1", 0)).extracting(LoggedEvent::seq).containsExactly(1L, 2L, 3L, 4L);
        assertThat(store.eventsAfter("t1", 2)).containsExactly(new LoggedEvent(3, appended.get(2).event()),
                new LoggedEvent(4, appended.get(3).event()));
        assertThat(store.eventsAfter("t1", 4)).isEmpty();
        assertThat(store.load("nope")).isEmpty();
        assertThat(store.eventsAfter("nope", 0)).isEmpty();
    }

    @Test
    void aLogSplitOverBatchesReadsBackInOrderAfterEverySequenceNumber() throws Exception {
        // Schema version 4 writes a task's events of one batch as one row keyed by its last: a read
        // after k starts inside a row, and a task whose events span batches spans rows, the
        // newest of them perhaps still in memory. Every tail must be the log's, exactly.
        SqliteTaskStore store = open();
        TaskHistory h = new TaskHistory("t1", "c1", T0);
        List<TaskEvent> appended = new ArrayList<>();
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("legate.db"));
             Statement s = other.createStatement()) {
            for (int round = 0; round < 3; round++) {
                // Another program's lock holds the writer back: the round's four events reach it in
                // at most two batches (the one it waits with, then the rest), one of several events.
                s.executeUpdate("BEGIN IMMEDIATE");
                for (int i = 0; i < 4; i++) {
                    TaskEvent e = appended.isEmpty() ? h.created()
                            : h.status(TaskState.TASK_STATE_WORKING, T0.plusMillis(appended.size()), "step " + appended.size());
                    store.append(e, false);
                    appended.add(e);
                }
                assertEveryTail(store, appended);
                s.executeUpdate("ROLLBACK");
                store.flush();
                assertEveryTail(store, appended);
            }
            assertThat(rows(s, "SELECT count(*) FROM events")).isGreaterThanOrEqualTo(3);
            assertThat(rows(s, "SELECT count(*) FROM events WHERE first_seq < seq")).isGreaterThanOrEqualTo(3);
            assertThat(rows(s, EVENTS_OF + "'t1'")).isEqualTo(12);
        }
        store.close();
        assertEveryTail(open(), appended);
    }

    private static void assertEveryTail(SqliteTaskStore store, List<TaskEvent> appended) {
        for (int k = 0; k <= appended.size(); k++) {
            assertThat(store.eventsAfter("t1", k)).as("after %d", k).isEqualTo(SchemaTest.logged(appended, k));
        }
    }

    @Test
    void aTurnsEventsTakeAboutTheirOwnSizeInTheFile() throws Exception {
        // DEFECT: in a WITHOUT ROWID table SQLite keeps about 1,000 bytes of a row on its page and
        // gives the rest an overflow page of its own, so each turn's chunk (1-2 KB) took a 4 KB
        // page more: the events table was three times the size of the events, and so was what
        // every commit wrote to the log.
        SqliteTaskStore store = open();
        String words = "word ".repeat(200);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve(SqliteTaskStore.FILE_NAME));
             Statement s = c.createStatement()) {
            // Another program's lock holds the writer back, so each turn's four events reach it in one batch.
            s.executeUpdate("BEGIN IMMEDIATE");
            for (int i = 0; i < 300; i++) {
                TaskHistory h = new TaskHistory("t" + i, "c" + i, T0.plusSeconds(i));
                store.append(h.created(), false);
                store.append(h.status(TaskState.TASK_STATE_WORKING, T0.plusSeconds(i), "Counting."), false);
                store.append(h.artifact("text-stats", words), false);
                store.append(h.status(TaskState.TASK_STATE_COMPLETED, T0.plusSeconds(i), "Done."), false);
            }
            s.executeUpdate("ROLLBACK");
            store.close();
            long payload = rows(s, "SELECT sum(length(event)) FROM events");
            assertThat(rows(s, "SELECT max(length(event)) FROM events")).as("a chunk's size").isGreaterThan(1_200);
            long pages = rows(s, "SELECT sum(pgsize) FROM dbstat WHERE name = 'events'");
            assertThat(pages).as("bytes of the events table's pages, for %d bytes of events", payload)
                    .isLessThan(payload * 3 / 2);
        }
    }

    @Test
    void anEventThatIsNotTheTasksNextIsRefusedToItsCaller() throws Exception {
        // The contract: IllegalStateException when the sequence number is not the task's next one,
        // thrown by append itself (not lost in the writer thread), for a task in memory or in the file.
        SqliteTaskStore store = open();
        TaskHistory h = new TaskHistory("t1", "c1", T0);
        TaskEvent first = h.created();
        TaskEvent second = h.status(TaskState.TASK_STATE_WORKING, T0, "Counting.");
        TaskEvent third = h.status(TaskState.TASK_STATE_COMPLETED, T0, "Done.");
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("legate.db"));
             Statement s = other.createStatement()) {
            // The writer held back by another program's lock: t1's first event is in memory for
            // certain, so a second first event is checked against it (one for a task the file
            // holds is not: CommitFailureTest).
            s.executeUpdate("BEGIN IMMEDIATE");
            store.append(first, false);
            assertThatThrownBy(() -> store.append(third, false)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("event 3 of task t1 does not follow its latest event, 1");
            assertThatThrownBy(() -> store.append(first, false)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("event 1 of task t1 does not follow its latest event, 1");
            s.executeUpdate("ROLLBACK");
        }
        TaskHistory unknown = new TaskHistory("t2", "c1", T0);
        unknown.created();
        TaskEvent secondOfUnknown = unknown.status(TaskState.TASK_STATE_WORKING, T0, "Counting.");
        assertThatThrownBy(() -> store.append(secondOfUnknown, false)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("event 2 of task t2 does not follow its latest event, 0");
        store.append(second, true);
        store.append(third, true);
        // Committed, and nothing pending: the file's sequence number is the one checked.
        assertThat(store.pendingTasks()).isZero();
        assertThatThrownBy(() -> store.append(third, false)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not follow its latest event, 3");
        assertThat(store.eventsAfter("t1", 0)).hasSize(3);
        assertThat(store.load("t2")).isEmpty();
    }

    @Test
    void readsSeeAnAppendTheFileDoesNotHoldYet() throws Exception {
        // The contract: reads of this store see an append when it returns, committed or not. Another
        // program's write lock holds the writer back, so the appends stay pending while we read.
        SqliteTaskStore store = open();
        TaskHistory h = new TaskHistory("t1", "c1", T0);
        TaskEvent created = h.created();
        TaskEvent working = h.status(TaskState.TASK_STATE_WORKING, T0.plusMillis(1), "Counting.");
        try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("legate.db"));
             Statement s = other.createStatement()) {
            s.executeUpdate("BEGIN IMMEDIATE");
            store.append(created, false);
            store.append(working, false);
            assertThat(store.load("t1")).contains(new StoredTask(h.task(), 2));
            assertThat(store.eventsAfter("t1", 0)).containsExactly(new LoggedEvent(1, created.event()),
                    new LoggedEvent(2, working.event()));
            assertThat(store.eventsAfter("t1", 1)).containsExactly(new LoggedEvent(2, working.event()));
            assertThat(rows(s, "SELECT count(*) FROM events")).isZero();
            s.executeUpdate("ROLLBACK");
        }
        store.flush();
        assertThat(store.pendingTasks()).isZero();
        assertThat(store.load("t1")).contains(new StoredTask(h.task(), 2));
        assertThat(store.eventsAfter("t1", 0)).extracting(LoggedEvent::seq).containsExactly(1L, 2L);
    }

    @Test
    void aDurableAppendIsInTheFileWhenItReturnsWithEveryAppendBeforeIt() throws Exception {
        // Acknowledge after commit: a durable append returns once it, and everything appended
        // before it (here another task's event), is committed; another connection sees both.
        SqliteTaskStore store = open();
        TaskHistory other = new TaskHistory("t0", "c1", T0);
        store.append(other.created(), false);
        completedTurn(store, "t1", "c1", T0);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("legate.db"));
             Statement s = c.createStatement()) {
            assertThat(rows(s, EVENTS_OF + "'t1'")).isEqualTo(4);
            assertThat(rows(s, "SELECT last_seq FROM tasks WHERE id = 't1'")).isEqualTo(4);
            assertThat(rows(s, EVENTS_OF + "'t0'")).isEqualTo(1);
        }
    }

    @Test
    void everythingSurvivesCloseAndReopenAsOneFile() throws Exception {
        // A task outlives the process: close commits what is queued (the last append here is not
        // durable) and folds the write-ahead log into the file.
        SqliteTaskStore store = open();
        TaskHistory done = completedTurn(store, "t1", "c1", T0);
        TaskHistory asking = new TaskHistory("t2", "c2", T0.plusSeconds(1));
        store.append(asking.created(), false);
        store.append(asking.status(TaskState.TASK_STATE_INPUT_REQUIRED, T0.plusSeconds(2), "Which text?"), false);
        store.saveContextState("c1", "{\"sessionId\":\"s-1\"}");
        List<LoggedEvent> log = store.eventsAfter("t1", 0);
        store.close();
        assertThat(dir.resolve("legate.db-wal")).satisfiesAnyOf(p -> assertThat(p).doesNotExist(),
                p -> assertThat(Files.size(p)).isZero());

        SqliteTaskStore again = open();
        assertThat(again.load("t1")).contains(new StoredTask(done.task(), 4));
        assertThat(again.load("t2")).contains(new StoredTask(asking.task(), 2));
        assertThat(again.eventsAfter("t1", 0)).isEqualTo(log);
        assertThat(again.contextState("c1")).contains("{\"sessionId\":\"s-1\"}");
        assertThat(again.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "")).tasks())
                .extracting(Task::getId).containsExactly("t2", "t1");
        // The log goes on where it stopped: a reply into the parked task is event 3.
        again.append(asking.status(TaskState.TASK_STATE_WORKING, T0.plusSeconds(3), "Counting."), true);
        assertThat(again.load("t2").orElseThrow().lastSeq()).isEqualTo(3);
    }

    @Test
    void retentionDeletesOldTerminalTasksWithTheirLogs() {
        // TASK_RETENTION: terminal tasks older than the cutoff go, their events with them; a task
        // still running, parked, or newer stays.
        SqliteTaskStore store = open();
        completedTurn(store, "old-done", "c1", T0);
        TaskHistory failed = new TaskHistory("old-failed", "c1", T0);
        store.append(failed.created(), false);
        store.append(failed.status(TaskState.TASK_STATE_FAILED, T0.plusMillis(1), "Broke."), true);
        TaskHistory working = new TaskHistory("old-working", "c1", T0);
        store.append(working.created(), false);
        store.append(working.status(TaskState.TASK_STATE_WORKING, T0, "Counting."), false);
        TaskHistory parked = new TaskHistory("old-parked", "c1", T0);
        store.append(parked.created(), false);
        store.append(parked.status(TaskState.TASK_STATE_INPUT_REQUIRED, T0, "Which?"), false);
        completedTurn(store, "new-done", "c1", T0.plusSeconds(3600));

        assertThat(store.deleteTerminalBefore(T0.plusSeconds(60))).isEqualTo(2);
        assertThat(store.load("old-done")).isEmpty();
        assertThat(store.eventsAfter("old-done", 0)).isEmpty();
        assertThat(store.load("old-failed")).isEmpty();
        assertThat(store.eventsAfter("old-failed", 0)).isEmpty();
        assertThat(store.load("old-working")).isPresent();
        assertThat(store.load("old-parked")).isPresent();
        assertThat(store.eventsAfter("new-done", 0)).hasSize(4);
        assertThat(store.deleteTerminalBefore(T0.plusSeconds(60))).isZero();
    }

    @Test
    void retentionDeletesMoreTasksThanOneTransactionTakes() {
        // The delete goes in chunks so appends are not held up; every chunk counts.
        SqliteTaskStore store = open();
        for (int i = 0; i < 2_500; i++) {
            TaskHistory h = new TaskHistory("t" + i, "c", T0.plusMillis(i));
            store.append(h.created(), false);
            store.append(h.status(TaskState.TASK_STATE_COMPLETED, T0.plusMillis(i), "Done."), false);
        }
        assertThat(store.deleteTerminalBefore(T0.plusSeconds(3600))).isEqualTo(2_500);
        assertThat(store.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "")).totalSize()).isZero();
    }

    @Test
    void unsettledFindsTheRunsARestartInterrupted() {
        // Restart: tasks SUBMITTED or WORKING when the process died are the ones to fail; parked and
        // finished ones are left as they are.
        SqliteTaskStore store = open();
        TaskHistory submitted = new TaskHistory("submitted", "c1", T0);
        store.append(submitted.created(), false);
        TaskHistory working = new TaskHistory("working", "c1", T0);
        store.append(working.created(), false);
        store.append(working.status(TaskState.TASK_STATE_WORKING, T0, "Counting."), false);
        TaskHistory parked = new TaskHistory("parked", "c1", T0);
        store.append(parked.created(), false);
        store.append(parked.status(TaskState.TASK_STATE_AUTH_REQUIRED, T0, "Log in."), false);
        completedTurn(store, "done", "c1", T0);
        store.close();

        SqliteTaskStore again = open();
        assertThat(again.unsettled()).containsExactlyInAnyOrder(new StoredTask(submitted.task(), 1),
                new StoredTask(working.task(), 2));
    }

    @Test
    void contextStateIsReplacedAndReadBack() {
        // What the bridge keeps per conversation: the latest save wins; an unknown context has none.
        SqliteTaskStore store = open();
        assertThat(store.contextState("c1")).isEmpty();
        store.saveContextState("c1", "first");
        store.saveContextState("c1", "second");
        store.saveContextState("c2", "other");
        assertThat(store.contextState("c1")).contains("second");
        assertThat(store.contextState("c2")).contains("other");
    }

    @Test
    void memoryHoldsOnlyAppendsInFlight() {
        // Bounded memory: once committed, nothing of a task stays in the store's memory.
        SqliteTaskStore store = open();
        for (int i = 0; i < 500; i++) {
            completedTurn(store, "t" + i, "c", T0.plusMillis(i));
        }
        store.flush();
        assertThat(store.pendingTasks()).isZero();
        assertThat(store.load("t499")).isPresent();
    }

    @Test
    void aSecondStoreOnTheSameFileIsRefused() {
        // Two processes on one file would interleave two logs unnoticed (the sequence check and the
        // pending appends live in memory); `legate agent` and `legate bridge` in one folder share data/.
        open();
        assertThatThrownBy(() -> SqliteTaskStore.open(dir)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("legate.db is in use by another Legate process")
                .hasMessageContaining("DATA_DIR");
    }

    @Test
    void openCreatesTheDataFolderAndAClosedStoreRefusesWork() {
        Path nested = dir.resolve("data/inner");
        SqliteTaskStore store = SqliteTaskStore.open(nested);
        assertThat(nested.resolve("legate.db")).exists();
        store.close();
        store.close();
        TaskEvent e = new TaskHistory("t1", "c1", T0).created();
        assertThatThrownBy(() -> store.append(e, false)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> store.load("t1")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    static long rows(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    /** {@code e} as appended by {@code owner}'s request. */
    static TaskEvent owned(TaskEvent e, String owner) {
        return new TaskEvent(e.seq(), e.event(), e.task(), owner);
    }

    @Test
    void ownersAreKeptWithTasksAndConversationsAndSurviveAReopen() {
        // README "Security": a task belongs to the principal of its first event, a conversation to
        // the one that claimed it or owns its tasks; ListTasks lists one owner's tasks; all of it
        // survives a restart.
        SqliteTaskStore store = open();
        TaskHistory a = new TaskHistory("t1", "c1", T0);
        store.append(owned(a.created(), "alice"), false);
        assertThat(store.load("t1")).get().extracting(StoredTask::owner).isEqualTo("alice");
        store.append(owned(a.status(TaskState.TASK_STATE_COMPLETED, T0.plusMillis(1), "Done."), "alice"), true);
        TaskHistory b = new TaskHistory("t2", "c2", T0.plusMillis(2));
        store.append(owned(b.created(), "bob"), true);
        TaskHistory anonymous = new TaskHistory("t3", "c3", T0.plusMillis(3));
        store.append(anonymous.created(), true);
        assertThat(store.claimContext("chosen", "carol")).isEqualTo("carol");
        assertThat(store.claimContext("chosen", "dave")).isEqualTo("carol");
        store.close();

        SqliteTaskStore again = open();
        assertThat(again.load("t1")).get().extracting(StoredTask::owner).isEqualTo("alice");
        assertThat(again.load("t3")).get().extracting(StoredTask::owner).isEqualTo("");
        assertThat(again.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "", "alice")).tasks())
                .extracting(Task::getId).containsExactly("t1");
        assertThat(again.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "")).tasks())
                .extracting(Task::getId).containsExactly("t3");
        assertThat(again.list(new TaskQuery("c1", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "", "bob")).totalSize())
                .isZero();
        assertThat(again.contextOwner("c1")).contains("alice");
        assertThat(again.contextOwner("c2")).contains("bob");
        assertThat(again.contextOwner("c3")).contains("");
        assertThat(again.contextOwner("chosen")).contains("carol");
        assertThat(again.contextOwner("nobody's")).isEmpty();
        assertThat(again.claimContext("chosen", "dave")).isEqualTo("carol");
        // A claim keeps no executor state: the bridge sees none until it saves some.
        assertThat(again.contextState("chosen")).isEmpty();
        again.saveContextState("chosen", "{\"sessionId\":\"s1\"}");
        assertThat(again.contextOwner("chosen")).contains("carol");
        assertThat(again.contextState("chosen")).contains("{\"sessionId\":\"s1\"}");
    }
}
