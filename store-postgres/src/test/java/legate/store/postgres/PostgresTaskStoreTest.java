package legate.store.postgres;

import static legate.store.postgres.TestTasks.artifact;
import static legate.store.postgres.TestTasks.moved;
import static legate.store.postgres.TestTasks.opened;
import static legate.store.postgres.TestTasks.status;
import static legate.store.postgres.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskEvent;
import legate.a2a.server.task.TaskPage;
import legate.a2a.server.task.TaskQuery;
import legate.a2a.server.task.TaskStore;
import legate.testsupport.Cleanup;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The TaskStore contract, checked by running the same appends against the PostgreSQL store and
 * the in-memory reference: what is loaded, replayed, listed, paged, found unsettled and deleted
 * must be the same, page token for page token (A2A §3.1.3, §3.1.4). One server for the class, a
 * fresh database for each test.
 */
class PostgresTaskStoreTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static PostgresServer server;

    private final InMemoryTaskStore memory = new InMemoryTaskStore();
    private final Map<String, Long> seqs = new HashMap<>();
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

    /** Appends {@code t} as its task's next event to both stores. */
    private void save(Task t) {
        long seq = seqs.merge(t.getId(), 1L, Long::sum);
        TaskEvent e = seq == 1 ? opened(seq, t) : status(seq, t);
        memory.append(e, false);
        store.append(e, false);
    }

    private void append(TaskEvent e, boolean durable) {
        seqs.put(e.taskId(), e.seq());
        memory.append(e, durable);
        store.append(e, durable);
    }

    @Test
    void aTaskReadsBackAsAppendedWithItsSequenceNumber() {
        // PROTOCOL (A2A §3.1.3): GetTask answers the task as it stands after its latest event.
        Task working = task("t1", "c1", TaskState.TASK_STATE_WORKING, 100, 5_000_000);
        save(working);
        Task withArtifact = artifact(2, working, "partial").task();
        append(artifact(2, working, "partial"), false);
        Task done = moved(withArtifact, TaskState.TASK_STATE_COMPLETED, 1);
        append(status(3, done), true);

        assertThat(store.load("t1")).contains(new StoredTask(done, 3)).isEqualTo(memory.load("t1"));
        assertThat(store.get("t1")).contains(done);
        assertThat(store.load("nope")).isEmpty().isEqualTo(memory.load("nope"));
    }

    /**
     * DEFECT (issue 30): a stream's new task was appended durably, its turn waiting for a commit of
     * its own. {@code appendCommitted} does not wait; once its future completes, the task is in the
     * tables, where another store on the same database (a restarted process) reads it.
     */
    @Test
    void appendCommittedCompletesOnceTheTaskIsInTheTables() throws Exception {
        Task t = task("t1", "c1", TaskState.TASK_STATE_SUBMITTED, 100, 0);
        CompletableFuture<Void> created = store.appendCommitted(opened(1, t));
        assertThat(store.load("t1")).contains(new StoredTask(t, 1));
        created.get(10, TimeUnit.SECONDS);
        try (PostgresTaskStore restarted = PostgresTaskStore.open(url)) {
            assertThat(restarted.load("t1")).contains(new StoredTask(t, 1));
        }
    }

    @Test
    void theLogReplaysEveryEventAfterTheOneGivenInOrder() {
        // The log is what SubscribeToTask replays after a Last-Event-ID: every event, once, in order.
        Task t = task("t1", "c1", TaskState.TASK_STATE_SUBMITTED, 100, 0);
        append(opened(1, t), false);
        append(status(2, moved(t, TaskState.TASK_STATE_WORKING, 1)), false);
        append(artifact(3, moved(t, TaskState.TASK_STATE_WORKING, 1), "one"), false);
        append(artifact(4, moved(t, TaskState.TASK_STATE_WORKING, 2), "two"), false);
        append(status(5, moved(t, TaskState.TASK_STATE_COMPLETED, 3)), true);

        for (long after : new long[] {-1, 0, 1, 3, 4, 5, 9}) {
            List<LoggedEvent> got = store.eventsAfter("t1", after);
            assertThat(got).as("after %d", after).isEqualTo(memory.eventsAfter("t1", after));
        }
        assertThat(store.eventsAfter("t1", 2)).extracting(LoggedEvent::seq).containsExactly(3L, 4L, 5L);
        assertThat(store.eventsAfter("unknown", 0)).isEmpty();
    }

    @Test
    void listingFiltersOrdersAndPagesExactlyAsTheInMemoryStore() {
        // PROTOCOL (A2A §3.1.4): newest status first, ties broken by id, every filter, the total,
        // and page tokens that neither skip nor repeat. The inputs hold the hard cases: equal
        // status times (the id decides), times a few nanoseconds apart (below PostgreSQL's
        // microseconds), ids whose order differs between a locale and code points ("B" < "a"),
        // and tasks appended more than once (the latest state and time count).
        String[] contexts = {"c1", "c2", "c3"};
        TaskState[] states = {TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED,
            TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_SUBMITTED};
        String[] ids = {"a", "B", "a1", "Z", "b", "_x", "é", "task-10", "task-9", "A"};
        int n = 0;
        for (int round = 0; round < 4; round++) {
            for (String base : ids) {
                String id = base + round;
                long second = 1_000 + (n % 5);
                int nanos = (n % 3) * 1;
                save(task(id, contexts[n % 3], states[n % 5], second, nanos));
                n++;
            }
        }
        // Moved later: their new state and time must decide where they are listed.
        save(moved(task("a0", "c1", TaskState.TASK_STATE_WORKING, 1_000, 0), TaskState.TASK_STATE_COMPLETED, 7));
        save(moved(task("Z1", "c2", TaskState.TASK_STATE_COMPLETED, 1_000, 0), TaskState.TASK_STATE_FAILED, -100));

        List<TaskQuery> queries = new ArrayList<>();
        for (int pageSize : new int[] {1, 3, 7, 100}) {
            queries.add(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, pageSize, ""));
            queries.add(new TaskQuery("c2", TaskState.TASK_STATE_UNSPECIFIED, null, pageSize, ""));
            queries.add(new TaskQuery("", TaskState.TASK_STATE_COMPLETED, null, pageSize, ""));
            queries.add(new TaskQuery("c1", TaskState.TASK_STATE_WORKING, null, pageSize, ""));
            // PROTOCOL (a2a.proto status_timestamp_after): greater than or equal, to the nanosecond.
            queries.add(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, Instant.ofEpochSecond(1_002, 1), pageSize, ""));
            queries.add(new TaskQuery("c3", TaskState.TASK_STATE_UNSPECIFIED, Instant.ofEpochSecond(1_003), pageSize, ""));
            queries.add(new TaskQuery("nobody", TaskState.TASK_STATE_UNSPECIFIED, null, pageSize, ""));
        }
        for (TaskQuery q : queries) {
            List<TaskPage> expected = walk(memory, q);
            assertThat(walk(store, q)).as("%s", q).isEqualTo(expected);
        }
        assertThat(walk(store, queries.get(0)).stream().mapToInt(p -> p.tasks().size()).sum()).isEqualTo(ids.length * 4);
    }

    /** Every page of {@code q}, following the tokens to the end. */
    private static List<TaskPage> walk(TaskStore s, TaskQuery q) {
        List<TaskPage> pages = new ArrayList<>();
        String token = "";
        do {
            TaskPage page = s.list(new TaskQuery(q.contextId(), q.status(), q.statusAfter(), q.pageSize(), token));
            pages.add(page);
            token = page.nextPageToken();
        } while (!token.isEmpty() && pages.size() < 100);
        return pages;
    }

    @Test
    void aPageTokenNotIssuedByAStoreIsRefusedAsInvalid() {
        // PROTOCOL (A2A §3.1.4): the token is opaque; a forged one is an invalid parameter, not a crash.
        save(task("t1", TaskState.TASK_STATE_COMPLETED));
        for (String token : new String[] {"garbage!", "bm9wZQ", "MTIuMw"}) {
            TaskQuery q = new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, token);
            assertThatThrownBy(() -> memory.list(q)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> store.list(q)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("pageToken");
        }
    }

    @Test
    void aSequenceNumberThatDoesNotFollowTheTasksLatestIsRefused() {
        // The TaskStore contract: the event joins the log under the task's next number, or not at all.
        Task t = task("t1", TaskState.TASK_STATE_WORKING);
        store.append(opened(1, t), false);
        assertThatThrownBy(() -> store.append(status(3, t), false)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("event 3 of task t1 appended after event 1");
        assertThatThrownBy(() -> store.append(opened(1, t), false)).isInstanceOf(IllegalStateException.class);
        store.append(status(2, moved(t, TaskState.TASK_STATE_INPUT_REQUIRED, 1)), true);

        // The turn is over and committed: the check now reads the stored number, in this store and in another.
        assertThatThrownBy(() -> store.append(status(2, t), false)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("after event 2");
        try (PostgresTaskStore other = PostgresTaskStore.open(url)) {
            assertThatThrownBy(() -> other.append(status(4, t), true)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("after event 2");
            other.append(status(3, moved(t, TaskState.TASK_STATE_WORKING, 2)), true);
        }
        assertThat(store.load("t1").orElseThrow().lastSeq()).isEqualTo(3);
        assertThat(store.eventsAfter("t1", 0)).extracting(LoggedEvent::seq).containsExactly(1L, 2L, 3L);
    }

    @Test
    void aFirstEventForATaskIdThatIsTakenIsRefusedAtCommit() {
        // The deviation documented on PostgresTaskStore.append: a first event is not checked before
        // it is queued, but the database refuses it, and nothing of the stored task changes.
        Task t = task("t1", TaskState.TASK_STATE_COMPLETED);
        store.append(opened(1, t), true);
        Task impostor = task("t1", "another-context", TaskState.TASK_STATE_WORKING, 5, 0);
        try (PostgresTaskStore other = PostgresTaskStore.open(url)) {
            assertThatThrownBy(() -> other.append(opened(1, impostor), true)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("event 1 of task t1 was not committed: the stored log of the task"
                            + " does not end at event 0");
            other.append(opened(1, impostor), false);
            other.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 1, ""));
            assertThat(other.get("t1")).contains(t);
            // The stored log happens to end at event 1: the impostor's event 2 would fit it, and must not.
            assertThatThrownBy(() -> other.append(status(2, impostor), false)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("event 2 of task t1 follows events that were not committed");
        }
        assertThat(store.eventsAfter("t1", 0)).extracting(LoggedEvent::seq).containsExactly(1L);
        assertThat(store.get("t1")).contains(t);
    }

    @Test
    void unsettledFindsTheSubmittedAndWorkingTasksOnly() {
        // Restart recovery fails the runs a restart interrupted; parked and finished tasks stay as they are.
        save(task("submitted", TaskState.TASK_STATE_SUBMITTED));
        save(task("working", TaskState.TASK_STATE_WORKING));
        save(task("asking", TaskState.TASK_STATE_INPUT_REQUIRED));
        save(task("auth", TaskState.TASK_STATE_AUTH_REQUIRED));
        save(task("done", TaskState.TASK_STATE_COMPLETED));
        Task finished = task("finished-later", TaskState.TASK_STATE_WORKING);
        save(finished);
        save(moved(finished, TaskState.TASK_STATE_CANCELED, 1));

        assertThat(store.unsettled()).containsExactlyInAnyOrderElementsOf(memory.unsettled());
        assertThat(store.unsettled()).extracting(s -> s.task().getId()).containsExactlyInAnyOrder("submitted", "working");
    }

    @Test
    void retentionDeletesOldTerminalTasksWithTheirLogsAndNothingElse() {
        // TASK_RETENTION: terminal tasks older than the cutoff go, with their events; a task that can
        // still be continued (INPUT_REQUIRED) or is running is kept however old.
        long old = 1_000;
        long recent = 2_000;
        save(task("old-completed", "c", TaskState.TASK_STATE_COMPLETED, old, 0));
        save(task("old-failed", "c", TaskState.TASK_STATE_FAILED, old, 0));
        save(task("old-canceled", "c", TaskState.TASK_STATE_CANCELED, old, 0));
        save(task("old-rejected", "c", TaskState.TASK_STATE_REJECTED, old, 0));
        save(task("old-asking", "c", TaskState.TASK_STATE_INPUT_REQUIRED, old, 0));
        save(task("old-working", "c", TaskState.TASK_STATE_WORKING, old, 0));
        save(task("at-cutoff", "c", TaskState.TASK_STATE_COMPLETED, recent, 0));
        save(task("recent", "c", TaskState.TASK_STATE_COMPLETED, recent, 5));
        Instant cutoff = Instant.ofEpochSecond(recent);

        assertThat(store.deleteTerminalBefore(cutoff)).isEqualTo(memory.deleteTerminalBefore(cutoff)).isEqualTo(4);
        TaskQuery all = new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 100, "");
        assertThat(store.list(all)).isEqualTo(memory.list(all));
        assertThat(store.list(all).tasks()).extracting(Task::getId)
                .containsExactlyInAnyOrder("old-asking", "old-working", "at-cutoff", "recent");
        assertThat(store.eventsAfter("old-completed", 0)).isEmpty();
        assertThat(store.load("old-completed")).isEmpty();
        assertThat(store.eventsAfter("old-asking", 0)).hasSize(1);
    }

    @Test
    void aConversationsStateIsKeptReplacedAndSurvivesAReopen() {
        // The bridge keeps its ACP session per context in the store, to restore a conversation after a restart.
        assertThat(store.contextState("ctx")).isEmpty();
        store.saveContextState("ctx", "{\"sessionId\":\"s1\"}");
        store.saveContextState("ctx", "{\"sessionId\":\"s2\"}");
        store.saveContextState("other", "x");
        assertThat(store.contextState("ctx")).contains("{\"sessionId\":\"s2\"}");
        store.close();
        store = PostgresTaskStore.open(url);
        assertThat(store.contextState("ctx")).contains("{\"sessionId\":\"s2\"}");
        assertThat(store.contextState("other")).contains("x");
    }

    @Test
    void ownersAreKeptWithTasksAndConversationsAndSurviveAReopen() {
        // README "Security": a task belongs to the principal of its first event, a conversation to
        // the one that claimed it or owns its tasks; ListTasks lists one owner's tasks; all of it
        // survives a restart, and holds for every instance on the database.
        Task alices = task("t1", TaskState.TASK_STATE_SUBMITTED);
        store.append(new TaskEvent(1, opened(1, alices).event(), alices, "alice"), false);
        store.append(new TaskEvent(2, status(2, moved(alices, TaskState.TASK_STATE_COMPLETED, 1)).event(),
                moved(alices, TaskState.TASK_STATE_COMPLETED, 1), "alice"), true);
        Task anonymous = task("t2", TaskState.TASK_STATE_WORKING);
        store.append(opened(1, anonymous), true);
        assertThat(store.claimContext("chosen", "carol")).isEqualTo("carol");
        assertThat(store.claimContext("chosen", "dave")).isEqualTo("carol");
        store.close();
        store = PostgresTaskStore.open(url);
        assertThat(store.load("t1")).get().extracting(StoredTask::owner).isEqualTo("alice");
        assertThat(store.load("t2")).get().extracting(StoredTask::owner).isEqualTo("");
        assertThat(store.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "", "alice")).tasks())
                .extracting(Task::getId).containsExactly("t1");
        assertThat(store.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "")).tasks())
                .extracting(Task::getId).containsExactly("t2");
        assertThat(store.contextOwner(alices.getContextId())).contains("alice");
        assertThat(store.contextOwner("chosen")).contains("carol");
        assertThat(store.contextOwner("nobody's")).isEmpty();
        assertThat(store.contextState("chosen")).isEmpty();
    }

    @Test
    void whatADurableAppendAcknowledgedIsThereForTheNextProcess() {
        // Acknowledge after commit: a durable append returns once it and everything before it is
        // committed, so a new store on the same database (a restarted process) reads all of it.
        Task t = task("t1", TaskState.TASK_STATE_SUBMITTED);
        append(opened(1, t), false);
        append(status(2, moved(t, TaskState.TASK_STATE_WORKING, 1)), false);
        Task other = task("t2", TaskState.TASK_STATE_WORKING);
        append(opened(1, other), false);
        append(status(3, moved(t, TaskState.TASK_STATE_COMPLETED, 2)), true);
        try (PostgresTaskStore next = PostgresTaskStore.open(url)) {
            assertThat(next.load("t1")).isEqualTo(memory.load("t1"));
            assertThat(next.eventsAfter("t1", 0)).isEqualTo(memory.eventsAfter("t1", 0));
            assertThat(next.load("t2")).isEqualTo(memory.load("t2"));
        }
    }

    @Test
    void idsPostgresqlCannotHoldAreRefusedAtTheCallerNotInTheSharedBatch() {
        // DEFECT guarded: a U+0000 in a client's contextId would fail the whole group commit, and with
        // it the appends of every other task in the batch. It is refused before it is queued.
        Task bad = task("t1", "ctx\0", TaskState.TASK_STATE_WORKING, 1, 0);
        assertThatThrownBy(() -> store.append(opened(1, bad), true)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("U+0000");
        assertThat(store.load("t\0")).isEmpty();
        assertThat(store.list(new TaskQuery("ctx\0", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "")).totalSize())
                .isZero();
        save(task("t1", TaskState.TASK_STATE_COMPLETED));
        assertThat(store.load("t1")).isEqualTo(memory.load("t1"));
    }

    @Test
    void aDatabaseThatCannotBeReachedIsNamedInTheErrorWithoutItsPassword() throws Exception {
        // Secure by default: the start-up error names where the store tried to connect, never the secret.
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        DatabaseUrl unreachable = DatabaseUrl.parse("postgres://legate:s3cret@127.0.0.1:" + closedPort + "/tasks");
        Throwable failure = catchThrowable(() -> PostgresTaskStore.open(unreachable));
        assertThat(failure).isInstanceOf(PostgresStoreException.class)
                .hasMessageContaining("cannot connect to PostgreSQL at jdbc:postgresql://127.0.0.1:" + closedPort
                        + "/tasks as legate");
        for (Throwable t = failure; t != null; t = t.getCause()) {
            assertThat(String.valueOf(t.getMessage())).doesNotContain("s3cret");
        }
    }
}
