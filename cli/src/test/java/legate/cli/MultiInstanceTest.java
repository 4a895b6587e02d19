package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import legate.testsupport.ChildCommand;
import legate.testsupport.Cleanup;
import legate.testsupport.RunningChild;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three {@code legate agent} processes on one real PostgreSQL behind a round-robin proxy with no
 * stickiness behave as one agent (README "Several instances"): a subscriber on one instance
 * follows a task running on another, frame by frame with the same ids; a cancel reaching another
 * instance cancels it where it runs; a conversation's replies and next tasks run where the
 * conversation lives, whichever instance they reach; and a {@code kill -9} of an instance mid-turn
 * ends its task FAILED "instance lost" once its lease expires, after which the conversation goes on
 * elsewhere. A subscriber on one instance to a task parked on another follows the turn its reply
 * starts there to the terminal event (A2A §3.1.6). Consecutive requests through the proxy always
 * reach different instances.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MultiInstanceTest {
    private static final Pattern LISTENING = Pattern.compile("listening on (http://127\\.0\\.0\\.1:\\d+/)");
    private static final Pattern TASK = Pattern.compile("\"id\":\"([^\"]+)\",\"contextId\":\"([^\"]+)\"");
    private static final Duration START_LIMIT = Duration.ofSeconds(60);
    private static final Duration TURN_LIMIT = Duration.ofSeconds(30);
    private static final int CANCEL_ATTEMPTS = 3;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    @TempDir
    static Path dir;

    private static SharedPostgres postgres;
    private static RoundRobinProxy proxy;
    private static final List<RunningChild> processes = new ArrayList<>();
    private static final List<String> urls = new ArrayList<>();

    /** A task and its conversation. */
    private record TaskIds(String task, String context) {
    }

    /** One SSE frame as the test received it. */
    private record Frame(long id, String data, long receivedNanos) {
    }

    @BeforeAll
    static void startThreeInstances() throws Exception {
        postgres = cleanup.register(SharedPostgres.start());
        proxy = cleanup.register(new RoundRobinProxy());
        for (int i = 0; i < 3; i++) {
            // Revisor's steps 700 ms apart: long enough to subscribe, cancel or kill mid-turn.
            // A short lease, so that a killed instance is found gone within seconds.
            RunningChild agent = cleanup.register(ChildCommand.java(Legate.class, "agent").in(dir)
                    .without("HOST", "AGENT_NAME", "DATA_DIR", "TASK_RETENTION", "MAX_TASKS", "INSTANCE_URL",
                            "INSTANCE_ID")
                    .env("PORT", "0").env("TASK_STORE", "postgres").env("DATABASE_URL", postgres.databaseUrl())
                    .env("PUBLIC_URL", proxy.url()).env("STEP_DELAY_MS", "700")
                    .env("LEASE_TTL_MS", "1500").env("LEASE_HEARTBEAT_MS", "300")
                    .start());
            processes.add(agent);
        }
        for (RunningChild agent : processes) {
            String url = agent.awaitLine(LISTENING, START_LIMIT).group(1);
            urls.add(url);
            proxy.add(URI.create(url));
        }
        // A fresh JVM answers its first requests slowly (classes, connections): not what the tests time.
        for (String url : urls) {
            assertThat(call(url, "SendMessage", message("", null, null, false))).contains("TASK_STATE_INPUT_REQUIRED");
        }
    }

    @Test
    @Order(1)
    void aSubscriberOnOneInstanceFollowsATaskRunningOnAnotherFrameByFrameAndTheOthersAnswerForIt() throws Exception {
        TaskIds task = ids(call(proxy.url(), "SendMessage", message("One. Two. Three.", null, null, true)));
        int runner = proxy.lastBackend();

        List<Frame> followed = stream(proxy.url(), "SubscribeToTask", "{\"id\":\"" + task.task() + "\"}", null);
        assertThat(proxy.lastBackend()).as("subscribed elsewhere").isNotEqualTo(runner);

        // PROTOCOL (A2A §3.1.6): the task first, then its events as they happen, up to the terminal one.
        assertThat(followed.get(0).data()).contains("\"result\":{\"task\":");
        assertThat(followed.get(followed.size() - 1).data()).contains("TASK_STATE_COMPLETED");
        for (int i = 1; i < followed.size(); i++) {
            assertThat(followed.get(i).id()).as("frame %d", i).isEqualTo(followed.get(i - 1).id() + 1);
        }
        // Live, not read back at the end: the steps are 700 ms apart on the instance that runs them.
        assertThat(followed).hasSizeGreaterThanOrEqualTo(3);
        long spreadMs = (followed.get(followed.size() - 1).receivedNanos() - followed.get(1).receivedNanos()) / 1_000_000;
        assertThat(spreadMs).as("ms between the first live frame and the last").isGreaterThan(300);
        // Any instance answers for any task: GetTask and ListTasks on the two that did not run it.
        assertThat(call(urls.get((runner + 1) % 3), "GetTask", "{\"id\":\"" + task.task() + "\"}"))
                .contains("TASK_STATE_COMPLETED").contains("Words: 3");
        assertThat(call(urls.get((runner + 2) % 3), "ListTasks", "{\"contextId\":\"" + task.context() + "\"}"))
                .contains(task.task()).contains("\"totalSize\":1");
        // The same event has the same id on every stream (README "Tasks that last"): the runner's own replay.
        List<Frame> replayed = stream(urls.get(runner), "SubscribeToTask", "{\"id\":\"" + task.task() + "\"}", "0");
        for (Frame f : followed.subList(1, followed.size())) {
            assertThat(replayed).as("the runner's frame %d", f.id())
                    .anySatisfy(r -> assertThat(r).isEqualTo(new Frame(f.id(), f.data(), r.receivedNanos())));
        }
    }

    @Test
    @Order(2)
    void aCancelReachingAnotherInstanceCancelsTheTaskWhereItRuns() throws Exception {
        String canceled = null;
        TaskIds task = null;
        // A turn lasts two of Revisor's 700 ms steps; on a machine loaded many times over its cores
        // the turn has ended before the cancel reached it (-32002, the task COMPLETED), which says
        // nothing of forwarding. Such a try is made again with a new task, a bounded number of times.
        for (int attempt = 1; attempt <= CANCEL_ATTEMPTS; attempt++) {
            task = ids(call(proxy.url(), "SendMessage", message("Some words to count.", null, null, true)));
            int runner = proxy.lastBackend();
            canceled = call(proxy.url(), "CancelTask", "{\"id\":\"" + task.task() + "\"}");
            assertThat(proxy.lastBackend()).isNotEqualTo(runner);
            if (!canceled.contains("\"code\":-32002")
                    || !call(urls.get(runner), "GetTask", "{\"id\":\"" + task.task() + "\"}").contains("TASK_STATE_COMPLETED")) {
                break;
            }
        }
        // PROTOCOL (A2A §3.1.5): the answer is the task once it is CANCELED; a second cancel is -32002.
        assertThat(canceled).contains("TASK_STATE_CANCELED");
        assertThat(call(proxy.url(), "CancelTask", "{\"id\":\"" + task.task() + "\"}")).contains("\"code\":-32002");
    }

    @Test
    @Order(3)
    void aSubscriberOnAnotherInstanceFollowsAParkedTaskThroughTheTurnItsReplyStartsToCompleted() throws Exception {
        TaskIds task = ids(call(proxy.url(), "SendMessage", message("", null, null, false)));
        int home = proxy.lastBackend();
        int watcher = (home + 1) % 3;
        BlockingQueue<Object> frames = open(urls.get(watcher), "SubscribeToTask", "{\"id\":\"" + task.task() + "\"}", null);

        // The reply reaches the watcher, which forwards it home, where the conversation lives.
        String answered = call(urls.get(watcher), "SendMessage", message("Two words.", task.task(), null, false));
        assertThat(answered).contains("TASK_STATE_COMPLETED");

        // PROTOCOL (A2A §3.1.6): the parked task's snapshot, then the reply's turn as home commits it,
        // up to the terminal event, where the stream ends.
        List<Frame> seen = drain(frames);
        assertThat(seen.get(0).data()).contains("\"result\":{\"task\":").contains("TASK_STATE_INPUT_REQUIRED");
        for (int i = 1; i < seen.size(); i++) {
            assertThat(seen.get(i).id()).as("frame %d of %s", i, seen).isEqualTo(seen.get(i - 1).id() + 1);
        }
        assertThat(seen).anySatisfy(f -> assertThat(f.data()).contains("Words: 2"));
        assertThat(seen.get(seen.size() - 1).data()).contains("TASK_STATE_COMPLETED");
    }

    @Test
    @Order(4)
    void aConversationRunsWhereItLivesWhicheverInstanceItsRepliesAndNextTasksReach() throws Exception {
        String asked = call(proxy.url(), "SendMessage", message("", null, null, false));
        int home = proxy.lastBackend();
        assertThat(asked).contains("TASK_STATE_INPUT_REQUIRED");
        TaskIds task = ids(asked);

        String answered = call(proxy.url(), "SendMessage", message("Now there is text. Two sentences.", task.task(), null, false));
        assertThat(proxy.lastBackend()).isNotEqualTo(home);
        assertThat(answered).contains("TASK_STATE_COMPLETED").contains("Words: 6");

        List<Frame> next = stream(proxy.url(), "SendStreamingMessage", message("Three more words.", null, task.context(), false), null);
        assertThat(proxy.lastBackend()).isNotEqualTo(home);
        // Relayed byte for byte: the frames carry the ids of the instance that ran the turn, from 1.
        assertThat(next.get(0).id()).isEqualTo(1);
        for (int i = 1; i < next.size(); i++) {
            assertThat(next.get(i).id()).isEqualTo(i + 1);
        }
        assertThat(next.get(next.size() - 1).data()).contains("TASK_STATE_COMPLETED");
        assertThat(next.get(next.size() - 2).data()).contains("Words: 3");
        assertThat(leaseHolder(task.context())).as("the conversation never moved").isEqualTo(urls.get(home));
    }

    @Test
    @Order(5)
    void aKilledInstancesRunningTaskFailsAsInstanceLostAndItsConversationGoesOnWhereTheNextTaskArrives() throws Exception {
        TaskIds task = ids(call(proxy.url(), "SendMessage", message("Counting is slow today.", null, null, true)));
        int lost = proxy.lastBackend();
        int watcher = (lost + 1) % 3;
        // A stream resumed on another instance (README "Tasks that last"): everything after event 1, then live.
        BlockingQueue<Object> frames = open(urls.get(watcher), "SubscribeToTask", "{\"id\":\"" + task.task() + "\"}", "1");

        processes.get(lost).process().destroyForcibly();
        assertThat(processes.get(lost).process().waitFor(30, TimeUnit.SECONDS)).isTrue();

        List<Frame> seen = drain(frames);
        for (int i = 0; i < seen.size(); i++) {
            assertThat(seen.get(i).id()).as("frame %d of %s", i, seen).isEqualTo(i + 2);
        }
        String last = seen.get(seen.size() - 1).data();
        assertThat(last).contains("TASK_STATE_FAILED").contains("Instance lost").contains(urls.get(lost));
        String after = call(proxy.url(), "SendMessage", message("The conversation goes on.", null, task.context(), false));
        int now = proxy.lastBackend();
        assertThat(now).isNotEqualTo(lost);
        assertThat(after).contains("TASK_STATE_COMPLETED").contains("Words: 4");
        assertThat(leaseHolder(task.context())).isEqualTo(urls.get(now));
    }

    private static String message(String text, String taskId, String contextId, boolean returnImmediately) {
        return "{\"message\":{\"messageId\":\"" + UUID.randomUUID() + "\",\"role\":\"ROLE_USER\","
                + (taskId == null ? "" : "\"taskId\":\"" + taskId + "\",")
                + (contextId == null ? "" : "\"contextId\":\"" + contextId + "\",")
                + "\"parts\":[" + (text.isEmpty() ? "" : "{\"text\":\"" + text + "\"}") + "]}"
                + (returnImmediately ? ",\"configuration\":{\"returnImmediately\":true}" : "") + "}";
    }

    /** The task id and context id of the first task in an answer. */
    private static TaskIds ids(String answer) {
        Matcher m = TASK.matcher(answer);
        assertThat(m.find()).as("a task in %s", answer).isTrue();
        return new TaskIds(m.group(1), m.group(2));
    }

    private static HttpRequest request(String url, String method, String params, String lastEventId) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method
                        + "\",\"params\":" + params + "}"))
                .timeout(TURN_LIMIT);
        if (lastEventId != null) {
            b.header("Last-Event-ID", lastEventId);
        }
        return b.build();
    }

    private static String call(String url, String method, String params) throws Exception {
        return HTTP.send(request(url, method, params, null), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Every frame of a stream, once it has closed. */
    private static List<Frame> stream(String url, String method, String params, String lastEventId) throws Exception {
        return drain(open(url, method, params, lastEventId));
    }

    /** Opens a stream; its frames arrive in the queue as they come, then the string "end". */
    private static BlockingQueue<Object> open(String url, String method, String params, String lastEventId)
            throws Exception {
        HttpResponse<Stream<String>> response = HTTP.send(request(url, method, params, lastEventId),
                HttpResponse.BodyHandlers.ofLines());
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/event-stream");
        BlockingQueue<Object> frames = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> {
            long id = -1;
            StringBuilder data = new StringBuilder();
            try (Stream<String> lines = response.body()) {
                for (String line : (Iterable<String>) lines::iterator) {
                    if (line.startsWith("id:")) {
                        id = Long.parseLong(line.substring(3).trim());
                    } else if (line.startsWith("data:")) {
                        data.append(line.substring(5).trim());
                    } else if (line.isEmpty() && !data.isEmpty()) {
                        frames.add(new Frame(id, data.toString(), System.nanoTime()));
                        id = -1;
                        data.setLength(0);
                    }
                }
            } finally {
                frames.add("end");
            }
        });
        return frames;
    }

    private static List<Frame> drain(BlockingQueue<Object> frames) throws InterruptedException {
        List<Frame> out = new ArrayList<>();
        long deadline = System.nanoTime() + TURN_LIMIT.toNanos();
        while (true) {
            Object next = frames.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertThat(next).as("the stream closed within %s, after %s", TURN_LIMIT, out).isNotNull();
            if (next instanceof Frame f) {
                out.add(f);
            } else {
                assertThat(out).as("frames").isNotEmpty();
                return out;
            }
        }
    }

    /** The INSTANCE_URL of the instance that holds the context's lease. */
    private static String leaseHolder(String contextId) throws Exception {
        try (Connection c = DriverManager.getConnection(postgres.jdbcUrl());
             PreparedStatement ps = c.prepareStatement("SELECT i.url FROM legate.context_leases l"
                     + " JOIN legate.instances i ON i.id = l.instance_id WHERE l.context_id = ?")) {
            ps.setString(1, contextId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
