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
import java.util.concurrent.CompletableFuture;
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
import legate.wire.sse.SseParser;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * DEFECT (issue 30): the commit of a streamed task's creation blocked the executor. Each stream's
 * turn waited for a commit of its own before it went on, and its task and events took two batches of
 * the group-commit writer instead of one: streams/s fell to 0.73x and the first frame's p99 rose
 * 1.8x (docs/benchmarks.md, "Issue 30: the streamed task's durable creation"). Only the frames must
 * wait for the creation's commit ({@link StreamedTaskDurabilityTest}); here the store's commit is
 * held and the turn must go on meanwhile, its frames held back and then let go in order, or replaced
 * by an error when the commit fails.
 */
class StreamedCreationCommitTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private final CountDownLatch wentOn = new CountDownLatch(1);
    private final CountDownLatch finish = new CountDownLatch(1);

    /**
     * A store whose commit of a new task's creation completes when the test says. A durable append of
     * it (what the turn did before) is held too, so a turn that waits for the commit cannot go on.
     */
    static final class LateCommit extends ForwardingTaskStore {
        final CompletableFuture<Void> creation = new CompletableFuture<>();
        final CountDownLatch creationQueued = new CountDownLatch(1);
        final List<Long> durableSeqs = new CopyOnWriteArrayList<>();
        final List<Long> committedSeqs = new CopyOnWriteArrayList<>();

        LateCommit() {
            super(new InMemoryTaskStore());
        }

        @Override
        public void append(TaskEvent event, boolean durable) {
            if (durable) {
                durableSeqs.add(event.seq());
            }
            if (durable && event.seq() == 1) {
                creationQueued.countDown();
                creation.orTimeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).join();
            }
            store.append(event, durable);
        }

        @Override
        public CompletableFuture<Void> appendCommitted(TaskEvent event) {
            committedSeqs.add(event.seq());
            store.append(event, false);
            creationQueued.countDown();
            return creation;
        }

        boolean holds(String taskId) {
            return store.load(taskId).isPresent();
        }
    }

    private int serve(LateCommit store) throws Exception {
        AgentExecutor working = (ctx, events) -> {
            events.task(ctx.initialTask());
            events.status(TaskState.TASK_STATE_WORKING, events.agentText("on it"));
            wentOn.countDown();
            finish.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            events.status(TaskState.TASK_STATE_COMPLETED, events.agentText("done"));
        };
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                p -> LegateCards.jsonRpc("working", "d", "http://127.0.0.1:" + p + "/").build(), working, store,
                Clock.systemUTC());
        return cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
    }

    private static HttpRequest streamRequest(int port) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).header("Content-Type", "application/json")
                .header("A2A-Version", "1.0").header("Accept", "text/event-stream").timeout(WAIT)
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendStreamingMessage\","
                        + "\"params\":{\"message\":{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"work\"}]}}}"))
                .build();
    }

    /** The data of each SSE frame of the answer, as it arrives. */
    private static BlockingQueue<String> frames(int port) {
        BlockingQueue<String> frames = new LinkedBlockingQueue<>();
        HTTP.sendAsync(streamRequest(port), HttpResponse.BodyHandlers.ofInputStream())
                .thenAccept(r -> Thread.ofVirtual().start(() -> {
                    try (InputStream in = r.body()) {
                        new SseParser(1 << 20).parse(in, f -> frames.add(f.data()));
                    } catch (IOException e) {
                        // the stream ended
                    }
                }));
        return frames;
    }

    @Test
    void theTurnGoesOnWhileItsStreamsFirstFrameWaitsForTheCreationsCommit() throws Exception {
        LateCommit store = new LateCommit();
        BlockingQueue<String> frames = frames(serve(store));
        assertThat(store.creationQueued.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        assertThat(wentOn.await(5, TimeUnit.SECONDS))
                .as("the executor publishes its next event while the creation's commit is still out").isTrue();
        assertThat(frames.poll(300, TimeUnit.MILLISECONDS)).as("a frame written before the task is committed").isNull();

        store.creation.complete(null);
        String first = frames.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(first).as("the first frame, once committed").isNotNull().contains("\"task\"");
        assertThat(store.holds(WireJson.mapper().readTree(first).at("/result/task/id").asText())).isTrue();
        String second = frames.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(second).as("the frame held behind the first, in order").contains("TASK_STATE_WORKING");
        finish.countDown();
        assertThat(frames.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS)).contains("TASK_STATE_COMPLETED");
        // The creation is committed behind the turn's back; only the turn's end is awaited by the turn.
        assertThat(store.committedSeqs).containsExactly(1L);
        assertThat(store.durableSeqs).containsExactly(3L);
    }

    @Test
    void aCreationWhoseCommitFailsAfterTheTurnWentOnEndsTheStreamWithAnErrorAndNamesNoTask() throws Exception {
        // The frames held for the commit are dropped, the WORKING one too: they name a task the
        // store may not hold. The answer is the plain error a stream refused before its first event gets.
        LateCommit store = new LateCommit();
        int port = serve(store);
        CompletableFuture<HttpResponse<String>> answer = HTTP.sendAsync(streamRequest(port),
                HttpResponse.BodyHandlers.ofString());
        assertThat(wentOn.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
        store.creation.completeExceptionally(new IllegalStateException("disk full (a test's store)"));
        finish.countDown();
        String body = answer.get(WAIT.toMillis(), TimeUnit.MILLISECONDS).body();
        assertThat(body).doesNotContain("\"task\"").doesNotContain("TASK_STATE_WORKING").contains("-32603")
                .contains("the task store could not record the task").doesNotContain("disk full").doesNotContain("at legate.");
    }
}
