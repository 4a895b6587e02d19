package legate.store.postgres;

import static legate.store.postgres.TestTasks.artifact;
import static legate.store.postgres.TestTasks.moved;
import static legate.store.postgres.TestTasks.opened;
import static legate.store.postgres.TestTasks.status;
import static legate.store.postgres.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.TaskEvent;
import legate.a2a.server.task.TaskQuery;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.RunningChild;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The group commit as a caller of the store sees it: an append that is not durable returns at
 * once and is readable before it is committed; a durable one returns only after its commit; a
 * batch that fails fails its waiters and nothing else. To hold a commit back, a test locks the
 * tasks table from its own connection, as another database user might.
 */
class GroupCommitTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static PostgresServer server;

    private DatabaseUrl url;
    private PostgresTaskStore store;

    @BeforeAll
    static void startServer() {
        server = cleanup.register(PostgresServer.start());
    }

    @BeforeEach
    void openStore() {
        url = server.freshDatabase();
        store = PostgresTaskStore.open(url);
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url.jdbcUrl(), url.user(), url.password());
    }

    /** A connection holding a lock on the tasks table that blocks the group commit's writes until rollback. */
    private Connection lockTasks() throws SQLException {
        Connection c = connect();
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.execute("LOCK TABLE legate.tasks IN SHARE MODE");
        }
        return c;
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Waits until the store's writer is blocked on a lock, i.e. has taken a batch it cannot commit yet. */
    private void awaitWriterBlocked(Connection observer) throws SQLException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (count(observer, "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'legate'"
                + " AND wait_event_type = 'Lock'") == 0) {
            assertThat(System.nanoTime()).as("the group commit blocked on the test's lock within " + WAIT)
                    .isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** Waits until {@code s} shows event {@code seq} of the task: the append has been recorded and queued. */
    private static void awaitAppended(PostgresTaskStore s, String taskId, long seq) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (s.load(taskId).map(t -> t.lastSeq()).orElse(0L) < seq) {
            assertThat(System.nanoTime()).as("event " + seq + " of " + taskId + " appended within " + WAIT)
                    .isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    private CompletableFuture<Void> appendAsync(PostgresTaskStore s, TaskEvent e) {
        return CompletableFuture.runAsync(() -> s.append(e, true), r -> Thread.ofVirtual().start(r));
    }

    private static Throwable failureOf(CompletableFuture<Void> f) throws Exception {
        try {
            f.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return e.getCause();
        }
        throw new AssertionError("the append succeeded");
    }

    @Test
    void anAppendThatIsNotDurableIsReadableBeforeItIsCommitted() throws Exception {
        // The TaskStore contract: reads see an append when it returns; the commit may come later.
        Task t = task("t1", TaskState.TASK_STATE_WORKING);
        try (Connection lock = lockTasks()) {
            store.append(opened(1, t), false);
            store.append(artifact(2, t, "partial"), false);

            assertThat(count(lock, "SELECT count(*) FROM legate.events")).as("committed so far").isZero();
            assertThat(store.load("t1").orElseThrow().lastSeq()).isEqualTo(2);
            assertThat(store.get("t1").orElseThrow().getArtifactsCount()).isEqualTo(1);
            assertThat(store.eventsAfter("t1", 0)).extracting(LoggedEvent::seq).containsExactly(1L, 2L);
            assertThat(store.eventsAfter("t1", 1)).extracting(LoggedEvent::seq).containsExactly(2L);
            lock.rollback();
        }
        // ListTasks reads the table: it waits for the queue to drain, then shows the task.
        assertThat(store.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "")).tasks())
                .extracting(Task::getId).containsExactly("t1");
        try (Connection c = connect()) {
            assertThat(count(c, "SELECT count(*) FROM legate.events")).isEqualTo(2);
        }
    }

    @Test
    void aDurableAppendReturnsOnlyOnceItsBatchIsCommitted() throws Exception {
        // Acknowledge after commit: the event that ends a turn is in the database before the
        // caller may tell anyone, together with every event appended before it.
        Task t = task("t1", TaskState.TASK_STATE_WORKING);
        store.append(opened(1, t), false);
        CompletableFuture<Void> done;
        try (Connection lock = lockTasks()) {
            done = appendAsync(store, status(2, moved(t, TaskState.TASK_STATE_COMPLETED, 1)));
            awaitAppended(store, "t1", 2);
            awaitWriterBlocked(lock);
            assertThat(done).as("a durable append while its commit is held back").isNotDone();
            lock.rollback();
        }
        done.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        try (Connection c = connect()) {
            assertThat(count(c, "SELECT last_seq FROM legate.tasks WHERE id = 't1'")).isEqualTo(2);
            assertThat(count(c, "SELECT count(*) FROM legate.events WHERE task_id = 't1'")).isEqualTo(2);
        }
    }

    @Test
    void aFailedBatchFailsItsWaitersClearlyAndTheStoreGoesOn() throws Exception {
        // A commit that fails must not be acknowledged, must not leave a half-written task visible,
        // and must not stop the store: the next appends of other tasks commit as usual.
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("""
                    CREATE FUNCTION legate.refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                      IF NEW.task_id = 'poisoned' THEN RAISE EXCEPTION 'refused by the test''s trigger'; END IF;
                      RETURN NEW;
                    END $$""");
            s.execute("CREATE TRIGGER refuse BEFORE INSERT ON legate.events FOR EACH ROW EXECUTE FUNCTION legate.refuse()");
        }
        Task poisoned = task("poisoned", TaskState.TASK_STATE_WORKING);
        store.append(opened(1, poisoned), false);
        // Event 2 fails in event 1's batch, behind it, or before it is queued: each way it names the cause.
        assertThatThrownBy(() -> store.append(status(2, moved(poisoned, TaskState.TASK_STATE_COMPLETED, 1)), true))
                .isInstanceOf(PostgresStoreException.class)
                .hasMessageContaining("event 2 of task poisoned")
                .hasMessageContaining("refused by the test's trigger");

        // Nothing of it shows: the rolled-back events are not served from memory either.
        assertThat(store.load("poisoned")).isEmpty();
        assertThat(store.eventsAfter("poisoned", 0)).isEmpty();
        // Its run, unaware, would go on with event 3: refused, naming why.
        assertThatThrownBy(() -> store.append(status(3, poisoned), false)).isInstanceOf(PostgresStoreException.class)
                .hasMessageContaining("event 3 of task poisoned follows events that were not committed")
                .hasMessageContaining("refused by the test's trigger");

        Task healthy = task("healthy", TaskState.TASK_STATE_WORKING);
        store.append(opened(1, healthy), false);
        store.append(status(2, moved(healthy, TaskState.TASK_STATE_COMPLETED, 1)), true);
        assertThat(store.load("healthy").orElseThrow().lastSeq()).isEqualTo(2);
        assertThat(store.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "")).tasks())
                .extracting(Task::getId).containsExactly("healthy");

        // Once the database accepts it again, a new run that starts from what is stored (nothing) is
        // not held to the failed run's numbers.
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("DROP TRIGGER refuse ON legate.events");
        }
        store.append(opened(1, poisoned), true);
        assertThat(store.load("poisoned").orElseThrow().lastSeq()).isEqualTo(1);
    }

    @Test
    void eventsQueuedBehindAFailedOneAreNotCommittedSoTheLogHasNoGap() throws Exception {
        // DEFECT guarded: events 2 and 3 queued while event 1's batch was failing would have been
        // committed after it, leaving a log that starts at 2 and a replay that skips event 1.
        try (Connection c = connect(); Statement s = c.createStatement()) {
            s.execute("""
                    CREATE FUNCTION legate.refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                      IF NEW.task_id = 'poisoned' AND NEW.seq = 1 THEN RAISE EXCEPTION 'refused event 1'; END IF;
                      RETURN NEW;
                    END $$""");
            s.execute("CREATE TRIGGER refuse BEFORE INSERT ON legate.events FOR EACH ROW EXECUTE FUNCTION legate.refuse()");
        }
        Task poisoned = task("poisoned", TaskState.TASK_STATE_WORKING);
        Task bystander = task("bystander", TaskState.TASK_STATE_WORKING);
        CompletableFuture<Void> third;
        CompletableFuture<Void> bystanderDone;
        try (Connection lock = lockTasks()) {
            store.append(opened(1, poisoned), false);
            awaitWriterBlocked(lock);
            // Queued while the batch holding event 1 waits: they form the next batch.
            store.append(artifact(2, poisoned, "two"), false);
            third = appendAsync(store, status(3, moved(poisoned, TaskState.TASK_STATE_COMPLETED, 1)));
            bystanderDone = appendAsync(store, opened(1, bystander));
            awaitAppended(store, "poisoned", 3);
            awaitAppended(store, "bystander", 1);
            lock.rollback();
        }
        assertThat(failureOf(third)).isInstanceOf(PostgresStoreException.class)
                .hasMessageContaining("event 3 of task poisoned was not committed");
        bystanderDone.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        try (Connection c = connect()) {
            assertThat(count(c, "SELECT count(*) FROM legate.events WHERE task_id = 'poisoned'")).isZero();
            assertThat(count(c, "SELECT count(*) FROM legate.events WHERE task_id = 'bystander'")).isEqualTo(1);
        }
    }

    @Test
    void aTaskWhoseStoredLogMovedOnIsRejectedAloneAndTheRestOfItsBatchCommits() throws Exception {
        // Two stores on one database (two processes): the database checks each task's sequence
        // numbers again at commit, so a stale writer can neither duplicate an event nor fail the
        // other tasks that share its transaction.
        Task t = task("shared", TaskState.TASK_STATE_WORKING);
        store.append(opened(1, t), true);
        try (PostgresTaskStore other = PostgresTaskStore.open(url)) {
            assertThat(other.load("shared").orElseThrow().lastSeq()).isEqualTo(1);
            other.append(artifact(2, t, "from the other process"), true);
        }
        CompletableFuture<Void> stale;
        CompletableFuture<Void> bystander;
        try (Connection lock = lockTasks()) {
            store.append(opened(1, task("first", TaskState.TASK_STATE_WORKING)), false);
            awaitWriterBlocked(lock);
            // This store still believes the task is at event 1: its own check lets event 2 through.
            stale = appendAsync(store, status(2, moved(t, TaskState.TASK_STATE_COMPLETED, 1)));
            bystander = appendAsync(store, opened(1, task("bystander", TaskState.TASK_STATE_COMPLETED)));
            awaitAppended(store, "shared", 2);
            awaitAppended(store, "bystander", 1);
            lock.rollback();
        }
        assertThat(failureOf(stale)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the stored log of the task does not end at event 1");
        bystander.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(store.eventsAfter("shared", 0)).hasSize(2);
        assertThat(store.eventsAfter("shared", 1).get(0).event().getArtifactUpdate().getArtifact().getParts(0).getText())
                .isEqualTo("from the other process");
        assertThat(store.load("bystander")).isPresent();
    }

    @Test
    void everyTurnAcknowledgedBeforeAKill9IsInTheDatabaseAndNoLogHasAGap() throws Exception {
        // The durability contract: anything a caller has been told survives kill -9 of the
        // process at any moment. The child prints "acked" only after a turn's durable append
        // returned; it is killed mid-stream, with appends of eight threads in flight.
        RunningChild child = cleanup.register(ChildCommand.java(AppendingChild.class,
                url.jdbcUrl() + "?user=" + url.user(), "5000").start());
        child.awaitLine(Pattern.compile("^acked w\\d+-30$"), WAIT);
        child.process().destroyForcibly();
        ChildRun run = child.awaitExit(WAIT);
        assertThat(run.exitCode()).as("killed by SIGKILL").isEqualTo(137);

        List<String> acked = new ArrayList<>();
        for (String line : run.stdout().split("\n")) {
            if (line.startsWith("acked ")) {
                acked.add(line.substring("acked ".length()));
            }
        }
        assertThat(acked).hasSizeGreaterThanOrEqualTo(30);
        for (String id : acked) {
            assertThat(store.load(id)).as(id).hasValueSatisfying(s -> {
                assertThat(s.lastSeq()).isEqualTo(5);
                assertThat(s.task().getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
            });
            assertThat(store.eventsAfter(id, 0)).as(id).extracting(LoggedEvent::seq).containsExactly(1L, 2L, 3L, 4L, 5L);
        }
        // What was not acknowledged may be lost, but never torn: each task row matches its log.
        try (Connection c = connect()) {
            assertThat(count(c, "SELECT count(*) FROM legate.tasks t WHERE t.last_seq <>"
                    + " (SELECT count(*) FROM legate.events e WHERE e.task_id = t.id)")).isZero();
            assertThat(count(c, "SELECT count(*) FROM legate.tasks")).isGreaterThanOrEqualTo(acked.size());
        }
    }
}
