package legate.a2a.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.task.ForwardingTaskStore;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.TaskEvent;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import legate.wire.sse.SseEvent;
import legate.wire.sse.SseParser;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * DEFECT (issue 30, item 7): SendStreamingMessage wrote the new task's first frames before the task
 * was committed, so a kill -9 right after them lost the task, and GetTask of the id the caller had
 * been given answered -32001 after the restart. PROTOCOL (A2A §3.1.2, README "Tasks that last"): a
 * caller told a task's id finds that task after a crash. The stream's first frame now waits for the
 * creation's commit, and only for that one: the store's commit is held here, and no frame may
 * reach the caller until it is released.
 */
class StreamedTaskDurabilityTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private final CountDownLatch finish = new CountDownLatch(1);

    /** A store whose commit of a new task's first event is held until the test releases it; records what was durable. */
    static final class HeldCreation extends ForwardingTaskStore {
        final CountDownLatch creationWaiting = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<Long> durableSeqs = new CopyOnWriteArrayList<>();

        HeldCreation() {
            super(new InMemoryTaskStore());
        }

        @Override
        public void append(TaskEvent event, boolean durable) {
            if (durable) {
                durableSeqs.add(event.seq());
            }
            if (durable && event.seq() == 1) {
                creationWaiting.countDown();
                try {
                    if (!release.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                        throw new IllegalStateException("the test never released the commit");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            store.append(event, durable);
        }

        boolean holds(String taskId) {
            return store.load(taskId).isPresent();
        }
    }

    private int serve(HeldCreation store) throws Exception {
        AgentExecutor working = (ctx, events) -> {
            events.task(ctx.initialTask());
            events.status(TaskState.TASK_STATE_WORKING, events.agentText("on it"));
            finish.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            events.status(TaskState.TASK_STATE_COMPLETED, events.agentText("done"));
        };
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                p -> LegateCards.jsonRpc("working", "d", "http://127.0.0.1:" + p + "/").build(), working, store,
                Clock.systemUTC());
        return cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
    }

    private static BlockingQueue<SseEvent> stream(URI uri, String body) {
        BlockingQueue<SseEvent> frames = new LinkedBlockingQueue<>();
        HTTP.sendAsync(HttpRequest.newBuilder(uri).header("Content-Type", "application/json").header("A2A-Version", "1.0")
                        .header("Accept", "text/event-stream").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofInputStream()).thenAccept(r -> Thread.ofVirtual().start(() -> {
                    try (InputStream in = r.body()) {
                        new SseParser(1 << 20).parse(in, frames::add);
                    } catch (IOException e) {
                        // the stream ended
                    }
                }));
        return frames;
    }

    private static String message() {
        return "{\"message\":{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"work\"}]}}";
    }

    private void theFirstFrameWaitsForTheCreationsCommit(HeldCreation store, BlockingQueue<SseEvent> frames,
                                                        String taskPath) throws Exception {
        assertThat(store.creationWaiting.await(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .as("the stream's new task is appended durably").isTrue();
        assertThat(frames.poll(300, TimeUnit.MILLISECONDS)).as("a frame written before the task is committed").isNull();
        store.release.countDown();
        SseEvent first = frames.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(first).as("the first frame, once committed").isNotNull();
        String taskId = WireJson.mapper().readTree(first.data()).at(taskPath).asText();
        assertThat(taskId).isNotEmpty();
        assertThat(store.holds(taskId)).as("the task the first frame names is in the store").isTrue();
        finish.countDown();
        SseEvent last = first;
        for (SseEvent f = frames.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS); f != null;
                f = frames.poll(500, TimeUnit.MILLISECONDS)) {
            last = f;
        }
        assertThat(last.data()).contains("TASK_STATE_COMPLETED");
        // Cheap: the creation and the turn's end wait for a commit, the WORKING update in between does not.
        assertThat(store.durableSeqs).containsExactly(1L, 3L);
    }

    @Test
    void jsonRpcSendStreamingMessageWritesNoFrameBeforeTheNewTaskIsCommitted() throws Exception {
        HeldCreation store = new HeldCreation();
        int port = serve(store);
        BlockingQueue<SseEvent> frames = stream(URI.create("http://127.0.0.1:" + port + "/"),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendStreamingMessage\",\"params\":" + message() + "}");
        theFirstFrameWaitsForTheCreationsCommit(store, frames, "/result/task/id");
    }

    @Test
    void restMessageStreamWritesNoFrameBeforeTheNewTaskIsCommitted() throws Exception {
        HeldCreation store = new HeldCreation();
        int port = serve(store);
        BlockingQueue<SseEvent> frames = stream(URI.create("http://127.0.0.1:" + port + "/message:stream"), message());
        theFirstFrameWaitsForTheCreationsCommit(store, frames, "/task/id");
    }
}
