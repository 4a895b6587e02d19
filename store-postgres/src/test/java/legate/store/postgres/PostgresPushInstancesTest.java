package legate.store.postgres;

import static legate.store.postgres.TestTasks.moved;
import static legate.store.postgres.TestTasks.opened;
import static legate.store.postgres.TestTasks.status;
import static legate.store.postgres.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.push.AllowedHosts;
import legate.a2a.server.push.PushNotifications;
import legate.a2a.server.push.PushSettings;
import legate.a2a.server.task.StoredPushConfig;
import legate.a2a.server.task.UnsettledTasks;
import legate.testsupport.Cleanup;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskPushNotificationConfig;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pending push deliveries with several instances on one real PostgreSQL (README "Several
 * instances", "Push notifications"): instances starting at the same moment over the same pending
 * rows post each event once, those of a gone instance's conversation and of a conversation no one
 * holds included, and never resume the deliveries of a conversation a live peer holds.
 *
 * <p>DEFECT: every instance resumed every pending delivery of the store at start, so two instances
 * restarting together posted each pending event twice.
 */
class PostgresPushInstancesTest {
    private static final Duration LONG_TTL = Duration.ofSeconds(30);
    private static final Duration RARE_BEAT = Duration.ofSeconds(10);
    private static final Pattern KIND = Pattern.compile("\"(task|statusUpdate|artifactUpdate)\"");
    private static final Pattern STATE = Pattern.compile("TASK_STATE_[A-Z_]+");

    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static PostgresServer server;

    private final Deque<AutoCloseable> opened = new ArrayDeque<>();
    /** Each post as it arrived: the webhook's path, then what it carried ("/g statusUpdate TASK_STATE_FAILED"). */
    private final BlockingQueue<String> posted = new LinkedBlockingQueue<>();

    @BeforeAll
    static void startServer() {
        server = cleanup.register(PostgresServer.start());
    }

    @AfterEach
    void closeAll() throws Exception {
        while (!opened.isEmpty()) {
            opened.pop().close();
        }
    }

    private PostgresTaskStore store(DatabaseUrl url) {
        PostgresTaskStore s = PostgresTaskStore.open(url, 4);
        opened.push(s);
        return s;
    }

    private PostgresInstances join(PostgresTaskStore store, String id, int port) {
        return join(store, id, port, RARE_BEAT, new UnsettledTasks(store, Clock.systemUTC()));
    }

    private PostgresInstances join(PostgresTaskStore store, String id, int port, Duration beat, UnsettledTasks unsettled) {
        PostgresInstances group = store.instances(new InstanceSettings(id,
                p -> URI.create("http://127.0.0.1:" + p + "/"), LONG_TTL, beat));
        group.join(port, unsettled);
        opened.push(group);
        return group;
    }

    private int receiver() throws Exception {
        HttpServer http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        http.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        http.createContext("/", exchange -> {
            String body;
            try (InputStream in = exchange.getRequestBody()) {
                body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            Matcher kind = KIND.matcher(body);
            Matcher state = STATE.matcher(body);
            posted.add(exchange.getRequestURI().getPath() + " " + (kind.find() ? kind.group(1) : "?") + " "
                    + (state.find() ? state.group() : "?"));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        http.start();
        opened.push(() -> http.stop(0));
        return http.getAddress().getPort();
    }

    private static StoredPushConfig config(String taskId, int port, String path, long deliveredSeq) {
        return StoredPushConfig.registered(TaskPushNotificationConfig.newBuilder().setTaskId(taskId).setId("w-" + taskId)
                .setUrl("http://127.0.0.1:" + port + path).build(), deliveredSeq);
    }

    /** The next {@code n} posts, fewer when they do not come within 15 s each. */
    private List<String> next(int n) throws InterruptedException {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String p = posted.poll(15, TimeUnit.SECONDS);
            if (p == null) {
                break;
            }
            out.add(p);
        }
        return out;
    }

    private static List<String> of(List<String> posts, String path) {
        return posts.stream().filter(p -> p.startsWith(path + " ")).map(p -> p.substring(path.length() + 1)).toList();
    }

    @Test
    void instancesStartingTogetherPostEachPendingEventOnceAndLeaveALivePeersAlone() throws Exception {
        DatabaseUrl url = server.freshDatabase();
        InstanceTables tables = new InstanceTables(url);
        int port = receiver();
        PostgresTaskStore setup = store(url);
        // A gone instance's running task, its webhook behind by everything.
        tables.instance("gone-1", "http://10.0.0.9:41241/", 1000, 60_000, "ctx-g");
        Task g = task("t-g", "ctx-g", TaskState.TASK_STATE_WORKING, 1_700_000_000L, 0);
        setup.append(opened(1, g), true);
        setup.append(status(2, moved(g, TaskState.TASK_STATE_WORKING, 1)), true);
        setup.savePushConfig(config("t-g", port, "/g", 0));
        // A finished task in a conversation no one holds (its instance left cleanly), two events unsent.
        Task f = task("t-f", "ctx-f", TaskState.TASK_STATE_WORKING, 1_700_000_000L, 0);
        setup.append(opened(1, f), true);
        setup.append(status(2, moved(f, TaskState.TASK_STATE_WORKING, 1)), true);
        setup.append(status(3, moved(f, TaskState.TASK_STATE_COMPLETED, 2)), true);
        setup.savePushConfig(config("t-f", port, "/f", 1));
        // A live peer's conversation: its deliveries are the peer's to make.
        PostgresInstances peer = join(setup, "peer", 1003);
        assertThat(peer.runnerElsewhere("ctx-p")).isEmpty();
        Task p = task("t-p", "ctx-p", TaskState.TASK_STATE_WORKING, 1_700_000_000L, 0);
        setup.append(opened(1, p), true);
        setup.savePushConfig(config("t-p", port, "/p", 0));

        PushSettings push = PushSettings.DEFAULT.withAllowed(AllowedHosts.parse("127.0.0.1:" + port));
        ExecutorService starting = Executors.newFixedThreadPool(2);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> started = new CopyOnWriteArrayList<>();
        for (String id : List.of("b", "c")) {
            PostgresTaskStore store = store(url);
            PostgresInstances group = join(store, id, id.equals("b") ? 1001 : 1002);
            PushNotifications notifications = new PushNotifications(push, store, Clock.systemUTC(), new ServerMetrics(),
                    null, new Random());
            opened.push(notifications);
            started.add(starting.submit(() -> {
                go.await();
                notifications.start(group);
                return null;
            }));
        }
        go.countDown();
        for (Future<?> s : started) {
            s.get(20, TimeUnit.SECONDS);
        }
        starting.shutdown();

        List<String> posts = next(5);
        // In each webhook's order; the gone instance's task was failed by whichever instance took its conversation over.
        assertThat(of(posts, "/g")).containsExactly("task TASK_STATE_WORKING", "statusUpdate TASK_STATE_WORKING",
                "statusUpdate TASK_STATE_FAILED");
        assertThat(of(posts, "/f")).containsExactly("statusUpdate TASK_STATE_WORKING", "statusUpdate TASK_STATE_COMPLETED");
        // A second instance's duplicate, or a post for the live peer's conversation, would come within this.
        assertThat(posted.poll(1, TimeUnit.SECONDS)).as("nothing posted twice, nothing of the live peer's").isNull();
    }

    /**
     * The running task of an instance whose heartbeat stopped is failed by the instance that finds
     * it lost, which delivers that FAILED event (and what the lost one left unsent) to the task's
     * webhooks, though the lost instance pumped them.
     */
    @Test
    void theInstanceThatFindsAnotherLostDeliversTheFailureOfItsTaskToItsWebhook() throws Exception {
        DatabaseUrl url = server.freshDatabase();
        InstanceTables tables = new InstanceTables(url);
        int port = receiver();
        PostgresTaskStore store = store(url);
        UnsettledTasks unsettled = new UnsettledTasks(store, Clock.systemUTC());
        PostgresInstances b = join(store, "b", 1001, Duration.ofMillis(150), unsettled);
        PushNotifications notifications = new PushNotifications(
                PushSettings.DEFAULT.withAllowed(AllowedHosts.parse("127.0.0.1:" + port)), store, Clock.systemUTC(),
                new ServerMetrics(), null, new Random());
        opened.push(notifications);
        notifications.start(b);
        unsettled.onEnded(notifications::adopt);
        // An instance alive now, whose heartbeat stops: its task's first event was delivered, the second not.
        tables.instance("gone-2", "http://10.0.0.8:41241/", 600, 0, "ctx-h");
        Task h = task("t-h", "ctx-h", TaskState.TASK_STATE_WORKING, 1_700_000_000L, 0);
        store.append(opened(1, h), true);
        store.append(status(2, moved(h, TaskState.TASK_STATE_WORKING, 1)), true);
        store.savePushConfig(config("t-h", port, "/h", 1));

        assertThat(next(2)).containsExactly("/h statusUpdate TASK_STATE_WORKING", "/h statusUpdate TASK_STATE_FAILED");
        assertThat(posted.poll(1, TimeUnit.SECONDS)).as("nothing posted twice").isNull();
    }
}
