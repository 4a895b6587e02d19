package legate.a2a.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
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
import legate.a2a.model.ProtoJson;
import legate.a2a.model.grpc.GrpcMetadata;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.task.ForwardingTaskStore;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.TaskEvent;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import legate.wire.sse.SseParser;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * DEFECT (issue 30, item 7): SendStreamingMessage wrote the new task's first frames before the task
 * was committed, so a kill -9 right after them lost the task, and GetTask of the id the caller had
 * been given answered -32001 after the restart. PROTOCOL (A2A §3.1.2, README "Tasks that last"): a
 * caller told a task's id finds that task after a crash. The stream's first frame now waits for the
 * creation's commit, and only for that one: the store's commit is held here, and no frame may
 * reach the caller until it is released, on each binding (JSON-RPC, HTTP+JSON, gRPC, v0.3).
 * {@code cli} {@code RestartTest} checks the same with a real process killed after its first frame.
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

    private AgentServer server;

    private int serve(HeldCreation store) throws Exception {
        AgentExecutor working = (ctx, events) -> {
            events.task(ctx.initialTask());
            events.status(TaskState.TASK_STATE_WORKING, events.agentText("on it"));
            finish.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            events.status(TaskState.TASK_STATE_COMPLETED, events.agentText("done"));
        };
        server = AgentServer.create(ServerConfig.loopback(0),
                p -> LegateCards.jsonRpc("working", "d", "http://127.0.0.1:" + p + "/").build(), working, store,
                Clock.systemUTC());
        return cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
    }

    /** The data of each SSE frame of the answer to {@code body}, as it arrives. */
    private static BlockingQueue<String> stream(URI uri, String version, String body) {
        BlockingQueue<String> frames = new LinkedBlockingQueue<>();
        HTTP.sendAsync(HttpRequest.newBuilder(uri).header("Content-Type", "application/json").header("A2A-Version", version)
                        .header("Accept", "text/event-stream").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofInputStream()).thenAccept(r -> Thread.ofVirtual().start(() -> {
                    try (InputStream in = r.body()) {
                        new SseParser(1 << 20).parse(in, f -> frames.add(f.data()));
                    } catch (IOException e) {
                        // the stream ended
                    }
                }));
        return frames;
    }

    /** Each StreamResponse of a gRPC SendStreamingMessage, as ProtoJSON, as it arrives. */
    private BlockingQueue<String> grpcStream() {
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.grpcPort()).usePlaintext().build();
        cleanup.register(() -> {
            channel.shutdownNow();
            channel.awaitTermination(5, TimeUnit.SECONDS);
        });
        Metadata headers = new Metadata();
        headers.put(GrpcMetadata.VERSION, "1.0");
        BlockingQueue<String> frames = new LinkedBlockingQueue<>();
        A2AServiceGrpc.newStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers))
                .sendStreamingMessage(SendMessageRequest.newBuilder().setMessage(Message.newBuilder().setMessageId("m1")
                        .setRole(Role.ROLE_USER).addParts(Part.newBuilder().setText("work"))).build(),
                        new StreamObserver<>() {
                            @Override
                            public void onNext(StreamResponse value) {
                                frames.add(ProtoJson.print(value));
                            }

                            @Override
                            public void onError(Throwable t) {
                                frames.add("{\"error\":\"" + t.getClass().getSimpleName() + "\"}");
                            }

                            @Override
                            public void onCompleted() {
                                // the stream ended
                            }
                        });
        return frames;
    }

    private static String message() {
        return "{\"message\":{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"work\"}]}}";
    }

    private void theFirstFrameWaitsForTheCreationsCommit(HeldCreation store, BlockingQueue<String> frames,
                                                        String taskPath, String completed) throws Exception {
        assertThat(store.creationWaiting.await(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .as("the stream's new task is appended durably").isTrue();
        assertThat(frames.poll(300, TimeUnit.MILLISECONDS)).as("a frame written before the task is committed").isNull();
        store.release.countDown();
        String first = frames.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(first).as("the first frame, once committed").isNotNull();
        String taskId = WireJson.mapper().readTree(first).at(taskPath).asText();
        assertThat(taskId).isNotEmpty();
        assertThat(store.holds(taskId)).as("the task the first frame names is in the store").isTrue();
        finish.countDown();
        String last = first;
        for (int i = 0; i < 10 && !last.contains(completed); i++) {
            String f = frames.poll(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertThat(f).as("the frames after the first, up to the end of the turn").isNotNull();
            last = f;
        }
        assertThat(last).contains(completed);
        // Cheap: the creation and the turn's end wait for a commit, the WORKING update in between does not.
        assertThat(store.durableSeqs).containsExactly(1L, 3L);
    }

    @Test
    void jsonRpcSendStreamingMessageWritesNoFrameBeforeTheNewTaskIsCommitted() throws Exception {
        HeldCreation store = new HeldCreation();
        int port = serve(store);
        BlockingQueue<String> frames = stream(URI.create("http://127.0.0.1:" + port + "/"), "1.0",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendStreamingMessage\",\"params\":" + message() + "}");
        theFirstFrameWaitsForTheCreationsCommit(store, frames, "/result/task/id", "TASK_STATE_COMPLETED");
    }

    @Test
    void restMessageStreamWritesNoFrameBeforeTheNewTaskIsCommitted() throws Exception {
        HeldCreation store = new HeldCreation();
        int port = serve(store);
        BlockingQueue<String> frames = stream(URI.create("http://127.0.0.1:" + port + "/message:stream"), "1.0",
                message());
        theFirstFrameWaitsForTheCreationsCommit(store, frames, "/task/id", "TASK_STATE_COMPLETED");
    }

    @Test
    void grpcSendStreamingMessageSendsNoEventBeforeTheNewTaskIsCommitted() throws Exception {
        HeldCreation store = new HeldCreation();
        serve(store);
        theFirstFrameWaitsForTheCreationsCommit(store, grpcStream(), "/task/id", "TASK_STATE_COMPLETED");
    }

    @Test
    void v03MessageStreamWritesNoFrameBeforeTheNewTaskIsCommitted() throws Exception {
        HeldCreation store = new HeldCreation();
        int port = serve(store);
        BlockingQueue<String> frames = stream(URI.create("http://127.0.0.1:" + port + "/v0.3/"), "0.3",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/stream\",\"params\":{\"message\":{\"kind\":\"message\","
                        + "\"messageId\":\"m1\",\"role\":\"user\",\"parts\":[{\"kind\":\"text\",\"text\":\"work\"}]}}}");
        theFirstFrameWaitsForTheCreationsCommit(store, frames, "/result/id", "\"completed\"");
    }

    /** A store whose commit of a new task's first event fails, as a SQLite batch does when the disk is full. */
    static final class FailedCreation extends ForwardingTaskStore {
        FailedCreation() {
            super(new InMemoryTaskStore());
        }

        @Override
        public void append(TaskEvent event, boolean durable) {
            if (durable && event.seq() == 1) {
                throw new IllegalStateException("disk full (a test's store)");
            }
            store.append(event, durable);
        }
    }

    @Test
    void aCreationThatCannotBeCommittedEndsTheStreamWithAnErrorAndNamesNoTask() throws Exception {
        // A caller must never be given the id of a task the store does not hold: the stream ends with
        // an error instead (-32603, no stack trace), and does not hang. It hung before: the turn's end
        // could not be stored either, and nothing ended the stream.
        AgentExecutor working = (ctx, events) -> {
            events.task(ctx.initialTask());
            events.status(TaskState.TASK_STATE_COMPLETED, events.agentText("done"));
        };
        server = AgentServer.create(ServerConfig.loopback(0),
                p -> LegateCards.jsonRpc("working", "d", "http://127.0.0.1:" + p + "/").build(), working,
                new FailedCreation(), Clock.systemUTC());
        int port = cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
        HttpResponse<String> answer = HTTP.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .header("Accept", "text/event-stream").timeout(WAIT)
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendStreamingMessage\","
                        + "\"params\":" + message() + "}")).build(), HttpResponse.BodyHandlers.ofString()).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(answer.body()).doesNotContain("\"task\"").contains("-32603")
                .contains("the task store could not record the task").doesNotContain("disk full").doesNotContain("at legate.");
    }
}
