package legate.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskEvent;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch that cannot be committed: here another program holds the file's write lock past the
 * busy timeout (the same path as a full disk: the transaction fails and is rolled back). The
 * callers waiting on it are told, nothing half-written stays visible, and the store goes on.
 */
class CommitFailureTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @TempDir
    Path dir;
    private SqliteTaskStore store;
    private Connection other;
    private Statement lock;

    @BeforeEach
    void open() throws Exception {
        store = new SqliteTaskStore(dir.resolve("legate.db"), Schema.CURRENT, Duration.ofMillis(500));
        other = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("legate.db"));
        lock = other.createStatement();
    }

    @AfterEach
    void close() throws Exception {
        other.close();
        store.close();
    }

    @Test
    void aFailedBatchFailsItsDurableCallersAndTheStoreGoesOn() throws Exception {
        TaskHistory h = new TaskHistory("t1", "c1", T0);
        TaskEvent created = h.created();
        TaskEvent done = h.status(TaskState.TASK_STATE_COMPLETED, T0, "Done.");
        lock.executeUpdate("BEGIN IMMEDIATE");
        // Both reach the writer while it waits out the busy timeout on the first: the durable one
        // fails with its batch, or is dropped behind it (it may not follow a lost event).
        store.append(created, false);
        assertThatThrownBy(() -> store.append(done, true)).isInstanceOf(SqliteStoreException.class)
                .hasMessageContaining("could not commit")
                .hasMessageContaining("legate.db")
                .hasMessageContaining("locked");
        // Lost with its batch: no reader sees what the file never got.
        assertThat(store.load("t1")).isEmpty();
        assertThat(store.eventsAfter("t1", 0)).isEmpty();
        lock.executeUpdate("ROLLBACK");

        // The task's log goes on from what the file holds (nothing); other tasks are unaffected.
        assertThatThrownBy(() -> store.append(done, false)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not follow its latest event, 0");
        store.append(created, false);
        store.append(done, true);
        TaskHistory next = new TaskHistory("t2", "c1", T0);
        store.append(next.created(), true);
        assertThat(store.eventsAfter("t1", 0)).extracting(LoggedEvent::seq).containsExactly(1L, 2L);
        assertThat(store.load("t2")).isPresent();
    }

    @Test
    void aFirstEventForAnIdTheFileHoldsFailsItsBatchAndTheStoreGoesOn() {
        // A task's first event is not checked against the file (SqliteTaskStore.NEW_TASK: the
        // server made its id a moment ago). Should one come for a stored id, the insert of its row
        // breaks UNIQUE (id): the batch fails, its durable appender is told, the stored task is as
        // it was, and the next batch commits.
        TaskHistory h = new TaskHistory("t1", "c1", T0);
        store.append(h.created(), false);
        store.append(h.status(TaskState.TASK_STATE_INPUT_REQUIRED, T0, "Which text?"), true);
        StoredTask stored = new StoredTask(h.task(), 2);
        TaskHistory impostor = new TaskHistory("t1", "c2", T0.plusSeconds(1));
        assertThatThrownBy(() -> store.append(impostor.created(), true)).isInstanceOf(SqliteStoreException.class)
                .hasMessageContaining("could not commit")
                .hasMessageContaining("UNIQUE constraint failed: tasks.id");
        assertThat(store.load("t1")).contains(stored);
        assertThat(store.eventsAfter("t1", 0)).extracting(LoggedEvent::seq).containsExactly(1L, 2L);

        // The stored task goes on from what the file holds; a new one is stored as ever.
        store.append(h.status(TaskState.TASK_STATE_COMPLETED, T0.plusSeconds(2), "Done."), true);
        TaskHistory next = new TaskHistory("t2", "c1", T0);
        store.append(next.created(), true);
        assertThat(store.load("t1")).contains(new StoredTask(h.task(), 3));
        assertThat(store.eventsAfter("t1", 0)).extracting(LoggedEvent::seq).containsExactly(1L, 2L, 3L);
        assertThat(store.load("t2")).contains(new StoredTask(next.task(), 1));
    }

    /**
     * DEFECT (issue 30): a stream's new task was appended durably, its turn waiting for the commit
     * (a commit of its own per stream). {@code appendCommitted} returns while the file is still locked,
     * readers see the task at once, and its future completes with the batch that commits it, or fails
     * with it.
     */
    @Test
    void appendCommittedReturnsBeforeTheCommitAndItsFutureFollowsTheBatch() throws Exception {
        TaskHistory h = new TaskHistory("t1", "c1", T0);
        lock.executeUpdate("BEGIN IMMEDIATE");
        CompletableFuture<Void> created = store.appendCommitted(h.created());
        assertThat(created).as("committed while another program holds the write lock").isNotDone();
        assertThat(store.load("t1")).isPresent();
        lock.executeUpdate("ROLLBACK");
        created.get(10, TimeUnit.SECONDS);
        try (ResultSet r = lock.executeQuery("SELECT count(*) FROM tasks WHERE id = 't1'")) {
            assertThat(r.next()).isTrue();
            assertThat(r.getInt(1)).as("the task's row in the file once the future completed").isEqualTo(1);
        }

        TaskHistory failing = new TaskHistory("t2", "c1", T0);
        lock.executeUpdate("BEGIN IMMEDIATE");
        CompletableFuture<Void> lost = store.appendCommitted(failing.created());
        assertThatThrownBy(() -> lost.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(SqliteStoreException.class).hasMessageContaining("could not commit");
        lock.executeUpdate("ROLLBACK");
        assertThat(store.load("t2")).isEmpty();
    }

    @Test
    void aJobInAFailedBatchFailsItsCallerToo() throws Exception {
        lock.executeUpdate("BEGIN IMMEDIATE");
        assertThatThrownBy(() -> store.saveContextState("c1", "s")).isInstanceOf(SqliteStoreException.class);
        lock.executeUpdate("ROLLBACK");
        store.saveContextState("c1", "s");
        assertThat(store.contextState("c1")).contains("s");
    }
}
