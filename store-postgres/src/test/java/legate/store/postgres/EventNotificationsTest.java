package legate.store.postgres;

import static legate.store.postgres.TestTasks.opened;
import static legate.store.postgres.TestTasks.status;
import static legate.store.postgres.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
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
 * The fan-out of task events between instances through PostgreSQL's LISTEN/NOTIFY (README
 * "Several instances"): an event one instance commits is announced to the watchers of its task on
 * another, and a listener connection that is cut is opened again and tells every watcher to read
 * what it may have missed.
 */
class EventNotificationsTest {
    private static final Duration TTL = Duration.ofSeconds(30);
    private static final Duration BEAT = Duration.ofSeconds(10);

    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static PostgresServer server;

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    private DatabaseUrl url;

    @BeforeAll
    static void startServer() {
        server = cleanup.register(PostgresServer.start());
    }

    @BeforeEach
    void freshDatabase() {
        url = server.freshDatabase();
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

    private PostgresInstances group(PostgresTaskStore store, String id) {
        PostgresInstances g = store.instances(new InstanceSettings(id, port -> URI.create("http://127.0.0.1:" + port + "/"),
                TTL, BEAT));
        opened.push(g);
        return g;
    }

    private static Task working(String id) {
        return task(id, "ctx-" + id, TaskState.TASK_STATE_WORKING, 1_700_000_000L, 0);
    }

    @Test
    void anEventCommittedByOneInstanceIsAnnouncedToTheWatchersOfItsTaskOnAnother() throws Exception {
        PostgresTaskStore a = store();
        PostgresTaskStore bStore = store();
        PostgresInstances b = group(bStore, "b");
        BlockingQueue<String> announced = new LinkedBlockingQueue<>();
        b.watch("t-1", () -> announced.add("t-1"));
        b.watch("t-2", () -> announced.add("t-2"));
        b.join(2002, new UnsettledTasks(bStore, Clock.systemUTC()));
        // Joining listens, and a listener that (re)connects tells every watcher to read once.
        assertThat(announced.poll(10, TimeUnit.SECONDS)).isNotNull();
        assertThat(announced.poll(10, TimeUnit.SECONDS)).isNotNull();

        a.append(opened(1, working("t-1")), true);
        assertThat(announced.poll(10, TimeUnit.SECONDS)).isEqualTo("t-1");
        assertThat(bStore.eventsAfter("t-1", 0)).hasSize(1);

        a.append(opened(1, working("t-3")), true);
        a.append(status(2, working("t-1").toBuilder().build()), true);
        // t-3 has no watcher here; the next announcement is t-1's second event.
        assertThat(announced.poll(10, TimeUnit.SECONDS)).isEqualTo("t-1");
        assertThat(bStore.eventsAfter("t-1", 1)).hasSize(1);
    }

    @Test
    void aCutListenerConnectionIsOpenedAgainAndEveryWatcherReadsWhatItMayHaveMissed() throws Exception {
        PostgresTaskStore a = store();
        PostgresTaskStore bStore = store();
        PostgresInstances b = group(bStore, "b");
        BlockingQueue<String> announced = new LinkedBlockingQueue<>();
        b.watch("t-1", () -> announced.add("t-1"));
        b.join(2002, new UnsettledTasks(bStore, Clock.systemUTC()));
        assertThat(announced.poll(10, TimeUnit.SECONDS)).as("listening").isEqualTo("t-1");
        assertThat(b.listenerConnects()).isEqualTo(1);

        assertThat(new InstanceTables(url).dropListeners()).isEqualTo(1);

        // No event was appended: this is the listener, connected again, telling the watcher to read.
        assertThat(announced.poll(20, TimeUnit.SECONDS)).as("told again after the cut").isEqualTo("t-1");
        assertThat(b.listenerConnects()).isEqualTo(2);
        a.append(opened(1, working("t-1")), true);
        assertThat(announced.poll(10, TimeUnit.SECONDS)).as("notifications flow again").isEqualTo("t-1");
    }
}
