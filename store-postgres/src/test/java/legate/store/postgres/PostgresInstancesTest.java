package legate.store.postgres;

import static legate.store.postgres.TestTasks.opened;
import static legate.store.postgres.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.task.UnsettledTasks;
import legate.testsupport.Cleanup;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Context leases and the instances' heartbeats (README "Several instances"): a conversation runs
 * on the instance that holds its lease; an instance whose heartbeat stopped has its running tasks
 * FAILED as "instance lost", naming it, and its conversations run wherever their next turn
 * arrives; a starting instance fails the tasks of its own previous run, never a live peer's.
 */
class PostgresInstancesTest {
    private static final Duration LONG_TTL = Duration.ofSeconds(30);
    private static final Duration RARE_BEAT = Duration.ofSeconds(10);

    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static PostgresServer server;

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private DatabaseUrl url;
    private InstanceTables tables;

    @BeforeAll
    static void startServer() {
        server = cleanup.register(PostgresServer.start());
    }

    @BeforeEach
    void freshDatabase() {
        url = server.freshDatabase();
        tables = new InstanceTables(url);
    }

    @AfterEach
    void closeAll() throws Exception {
        while (!opened.isEmpty()) {
            opened.pop().close();
        }
    }

    private PostgresTaskStore store() {
        PostgresTaskStore s = PostgresTaskStore.open(url, 4);
        opened.push(s);
        return s;
    }

    private static URI urlOf(int port) {
        return URI.create("http://127.0.0.1:" + port + "/");
    }

    /** An instance of the group on {@code store}, joined as a server bound to {@code port} would. */
    private PostgresInstances join(PostgresTaskStore store, String id, int port, Duration ttl, Duration beat) {
        PostgresInstances group = store.instances(new InstanceSettings(id, PostgresInstancesTest::urlOf, ttl, beat));
        group.join(port, new UnsettledTasks(store, Clock.systemUTC()));
        opened.push(group);
        return group;
    }

    private static Task working(String id, String context) {
        return task(id, context, TaskState.TASK_STATE_WORKING, 1_700_000_000L, 0);
    }

    private static String said(Task t) {
        return t.getStatus().getMessage().getParts(0).getText();
    }

    @Test
    void aNewContextIsLeasedByTheInstanceThatReceivesItAndTheOthersSendItThere() {
        PostgresInstances a = join(store(), "a", 1001, LONG_TTL, RARE_BEAT);
        PostgresInstances b = join(store(), "b", 1002, LONG_TTL, RARE_BEAT);

        assertThat(a.runnerElsewhere("ctx-1")).isEmpty();
        assertThat(b.runnerElsewhere("ctx-1")).contains(urlOf(1001));
        assertThat(a.runnerElsewhere("ctx-1")).as("still a's").isEmpty();
        assertThat(b.runnerElsewhere("ctx-2")).isEmpty();
        assertThat(a.runnerElsewhere("ctx-2")).contains(urlOf(1002));
    }

    // README "Several instances": the instances vouch to each other for client certificates with one
    // secret, made once in the database; every instance reads the same, and a restart too.
    @Test
    void everyInstanceOnTheDatabaseSharesOnePeerKeyThatOutlivesThem() throws Exception {
        PostgresInstances a = join(store(), "a", 1001, LONG_TTL, RARE_BEAT);
        PostgresInstances b = join(store(), "b", 1002, LONG_TTL, RARE_BEAT);

        byte[] key = b.peerKey();
        assertThat(key).hasSizeGreaterThanOrEqualTo(32).isEqualTo(a.peerKey());
        assertThat(key).as("not all zeros").isNotEqualTo(new byte[key.length]);
        closeAll();
        assertThat(join(store(), "c", 1003, LONG_TTL, RARE_BEAT).peerKey()).isEqualTo(key);
        url = server.freshDatabase();
        assertThat(join(store(), "d", 1004, LONG_TTL, RARE_BEAT).peerKey()).as("another database's").isNotEqualTo(key);
    }

    @Test
    void theNextTurnInAConversationWhoseInstanceIsGoneRunsWhereItArrivesOnceTheRunningTaskIsFailedAsInstanceLost()
            throws Exception {
        PostgresTaskStore store = store();
        PostgresInstances b = join(store, "b", 1002, LONG_TTL, RARE_BEAT);
        tables.instance("gone-1", "http://10.0.0.9:41241/", 1000, 60_000, "ctx-g");
        store.append(opened(1, working("t-g", "ctx-g")), true);

        assertThat(b.runnerElsewhere("ctx-g")).as("taken over").isEmpty();

        Task failed = store.get("t-g").orElseThrow();
        assertThat(failed.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_FAILED);
        assertThat(said(failed)).startsWith("Instance lost: the instance gone-1 at http://10.0.0.9:41241/");
        assertThat(store.eventsAfter("t-g", 0)).hasSize(2);
    }

    @Test
    void theHeartbeatFailsTheRunningTasksOfAnInstanceWhoseHeartbeatStoppedAndFreesItsConversations() throws Exception {
        PostgresTaskStore other = store();
        PostgresTaskStore store = store();
        PostgresInstances b = join(store, "b", 1002, Duration.ofMillis(900), Duration.ofMillis(150));
        CountDownLatch failed = new CountDownLatch(1);
        b.watch("t-h", () -> {
            if (store.get("t-h").orElseThrow().getStatus().getState() == TaskState.TASK_STATE_FAILED) {
                failed.countDown();
            }
        });
        tables.instance("gone-2", "http://10.0.0.8:41241/", 300, 0, "ctx-h");
        // Written by another process, so only the store's notification tells b of the FAILED event.
        other.append(opened(1, working("t-h", "ctx-h")), true);

        assertThat(failed.await(20, TimeUnit.SECONDS)).as("t-h FAILED").isTrue();
        assertThat(said(store.get("t-h").orElseThrow())).startsWith("Instance lost: the instance gone-2 at http://10.0.0.8:41241/");
        assertThat(tables.count("SELECT count(*) FROM legate.context_leases WHERE instance_id = ?", "gone-2")).isZero();
        assertThat(b.runnerElsewhere("ctx-h")).isEmpty();
    }

    @Test
    void aStartingInstanceFailsTheTasksOfItsPreviousRunAndOfNoInstanceButNeverThoseOfALivePeer() throws Exception {
        PostgresTaskStore store = store();
        PostgresInstances a = join(store, "a", 1001, LONG_TTL, RARE_BEAT);
        assertThat(a.runnerElsewhere("ctx-a")).isEmpty();
        store.append(opened(1, working("t-a", "ctx-a")), true);
        // Its previous run was killed a moment ago: its heartbeat is still fresh, its URL the same.
        tables.instance("b-before", urlOf(1002).toString(), 30_000, 0, "ctx-b");
        store.append(opened(1, working("t-b", "ctx-b")), true);
        // Left running by a Legate that ran alone on this database, before instances had leases.
        store.append(opened(1, working("t-u", "ctx-u")), true);

        join(store(), "b-now", 1002, LONG_TTL, RARE_BEAT);

        assertThat(store.get("t-a").orElseThrow().getStatus().getState()).isEqualTo(TaskState.TASK_STATE_WORKING);
        for (String id : new String[] {"t-b", "t-u"}) {
            Task t = store.get(id).orElseThrow();
            assertThat(t.getStatus().getState()).as(id).isEqualTo(TaskState.TASK_STATE_FAILED);
            assertThat(said(t)).as(id).contains("restarted while this task was running");
        }
        assertThat(tables.count("SELECT count(*) FROM legate.instances WHERE id = ?", "b-before")).isZero();
    }

    // The lease table would otherwise grow by a row per conversation for as long as an instance lives.
    @Test
    void retentionFreesTheLeasesOfConversationsWithNoTaskLeftButNotOfANewOne() throws Exception {
        PostgresTaskStore store = store();
        tables.instance("a", urlOf(1001).toString(), 30_000, 0);
        long twoHours = 2 * 3600_000L;
        tables.lease("ctx-emptied", "a", twoHours);
        tables.lease("ctx-new", "a", 0);
        tables.lease("ctx-kept", "a", twoHours);
        store.append(opened(1, task("t-k", "ctx-kept", TaskState.TASK_STATE_INPUT_REQUIRED, 1_700_000_000L, 0)), true);

        store.deleteTerminalBefore(Instant.now());

        String leased = "SELECT count(*) FROM legate.context_leases WHERE context_id = ?";
        assertThat(tables.count(leased, "ctx-emptied")).isZero();
        assertThat(tables.count(leased, "ctx-new")).isEqualTo(1);
        assertThat(tables.count(leased, "ctx-kept")).isEqualTo(1);
    }

    @Test
    void anInstanceStoppedOnPurposeFailsItsRunningTasksAndFreesItsConversationsAtOnce() {
        PostgresTaskStore store = store();
        PostgresInstances a = join(store, "a", 1001, LONG_TTL, RARE_BEAT);
        PostgresInstances b = join(store(), "b", 1002, LONG_TTL, RARE_BEAT);
        assertThat(a.runnerElsewhere("ctx-s")).isEmpty();
        store.append(opened(1, working("t-s", "ctx-s")), true);

        a.close();

        assertThat(store.get("t-s").orElseThrow().getStatus().getState()).isEqualTo(TaskState.TASK_STATE_FAILED);
        assertThat(b.runnerElsewhere("ctx-s")).isEmpty();
    }
}
