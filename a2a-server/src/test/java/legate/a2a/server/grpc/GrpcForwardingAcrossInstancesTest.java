package legate.a2a.server.grpc;

import static legate.a2a.server.grpc.GrpcBindingTest.expect;
import static legate.a2a.server.grpc.GrpcBindingTest.send;
import static legate.a2a.server.grpc.GrpcBindingTest.states;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import legate.a2a.model.grpc.GrpcMetadata;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.BearerTokens;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.TokensFile;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.task.SharedLeases;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.TaskStore;
import legate.testsupport.Cleanup;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.Message;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gRPC binding across two instances on one store (README "Several instances"), in process on
 * real loopback sockets: a call on B whose conversation A runs is carried out by A, through A's
 * JSON-RPC URL (the one an instance announces), and answered on B as A answered it: a reply into a
 * parked task, a stream relayed frame by frame, a cancel of a running task. The credential is
 * checked on both: a wrong one on B never leaves B, one only B accepts is refused by A. A peer that
 * cannot be reached is UNAVAILABLE naming it, the code gRPC clients retry on.
 */
class GrpcForwardingAcrossInstancesTest {
    private static final String ALICE = "alice-token-0123456789";
    private static final String CAROL = "carol-token-0123456789";
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    private final SharedLeases leases = new SharedLeases();
    private final TaskStore shared = new InMemoryTaskStore();
    /** "instance:text" of every turn, in order. */
    private final List<String> ranOn = new CopyOnWriteArrayList<>();
    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    /** Counted down when a "hold" turn has begun to hold. */
    private final CountDownLatch holding = new CountDownLatch(1);

    /**
     * "ask": INPUT_REQUIRED; "gated": WORKING, then COMPLETED once the test opens the gate; "hold":
     * WORKING until a cancel (CANCELED) or the release; else WORKING, COMPLETED.
     */
    private AgentServer instance(String name, String tokens) throws Exception {
        Path file = Files.writeString(dir.resolve(name + ".tokens"), tokens);
        ServerSecurity security = new ServerSecurity(new CallerAuthentication(
                List.of(new BearerTokens(new TokensFile(file)))), null, 0);
        // A short keep-alive: a stream whose caller went away is noticed at its next write.
        ServerConfig config = new ServerConfig("127.0.0.1", 0, "/", ServerConfig.DEFAULT_MAX_BODY_BYTES,
                Duration.ofSeconds(10), Duration.ofMillis(200)).withSecurity(security);
        AgentServer server = AgentServer.create(config,
                port -> LegateCards.jsonRpc("twin", "one of two", "http://127.0.0.1:" + port + "/").build(),
                (ctx, events) -> {
                    String text = ctx.message().getPartsCount() == 0 ? "" : ctx.message().getParts(0).getText();
                    ranOn.add(name + ":" + text);
                    events.task(ctx.initialTask());
                    if (text.equals("ask") && ctx.storedTask() == null) {
                        events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText("which one?"));
                        return;
                    }
                    events.status(TaskState.TASK_STATE_WORKING, events.agentText("working"));
                    if (text.equals("gated")) {
                        gate.await(20, TimeUnit.SECONDS);
                    }
                    if (text.equals("hold")) {
                        ctx.cancel().onCancel(release::countDown);
                        holding.countDown();
                        release.await(20, TimeUnit.SECONDS);
                    }
                    events.status(ctx.cancel().isRequested() ? TaskState.TASK_STATE_CANCELED
                            : TaskState.TASK_STATE_COMPLETED, null);
                }, shared, Clock.systemUTC(), leases.instance());
        cleanup.start("instance " + name, server, AgentServer::start, AgentServer::openStreams);
        cleanup.register(release::countDown);
        return server;
    }

    private AgentServer a() throws Exception {
        return instance("A", "alice:" + ALICE + "\n");
    }

    private AgentServer b() throws Exception {
        return instance("B", "alice:" + ALICE + "\ncarol:" + CAROL + "\n");
    }

    private A2AServiceGrpc.A2AServiceBlockingStub stub(AgentServer server, String token) {
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.grpcPort()).usePlaintext().build();
        cleanup.register(() -> {
            channel.shutdownNow();
            channel.awaitTermination(5, TimeUnit.SECONDS);
        });
        Metadata headers = new Metadata();
        headers.put(GrpcMetadata.VERSION, "1.0");
        headers.put(GrpcMetadata.ascii("authorization"), "Bearer " + token);
        return A2AServiceGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(headers));
    }

    private static Message inContext(String contextId, String text) {
        return GrpcAgent.message(text).toBuilder().setContextId(contextId).build();
    }

    private URI leasedTo(AgentServer server, String contextId) {
        URI url = URI.create("http://127.0.0.1:" + server.port() + "/");
        leases.hold(contextId, url);
        return url;
    }

    // README "Several instances": a reply into an INPUT_REQUIRED task is carried out where its conversation runs.
    @Test
    void aReplyOnBIntoATaskParkedOnARunsOnAAndIsAnsweredOnB() throws Exception {
        AgentServer a = a();
        AgentServer b = b();
        Task parked = stub(a, ALICE).sendMessage(send(GrpcAgent.message("ask"))).getTask();
        assertThat(parked.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);

        Message reply = GrpcAgent.message("the blue one").toBuilder().setTaskId(parked.getId()).build();
        Task answered = stub(b, ALICE).sendMessage(send(reply)).getTask();

        assertThat(answered.getId()).isEqualTo(parked.getId());
        assertThat(answered.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(answered.getHistoryList()).extracting(Message::getMessageId).contains(reply.getMessageId());
        assertThat(ranOn).containsExactly("A:ask", "A:the blue one");
    }

    // PROTOCOL (A2A §3.1.2): the stream's events arrive as the agent publishes them, through B as from A.
    @Test
    void aStreamOnBOfAConversationOnAIsRelayedFrameByFrame() throws Exception {
        AgentServer a = a();
        AgentServer b = b();
        leasedTo(a, "ctx-on-a");

        AtomicReference<Metadata> headers = new AtomicReference<>();
        Iterator<StreamResponse> events = stub(b, ALICE).withInterceptors(MetadataUtils.newCaptureMetadataInterceptor(
                headers, new AtomicReference<>())).sendStreamingMessage(send(inContext("ctx-on-a", "gated")));
        List<StreamResponse> read = new ArrayList<>();
        read.add(events.next());
        read.add(events.next());
        // WORKING is here while A holds COMPLETED back: relayed live, not at the end of the turn.
        assertThat(states(read)).containsExactly(TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING);
        gate.countDown();
        events.forEachRemaining(read::add);

        assertThat(states(read)).containsExactly(TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING,
                TaskState.TASK_STATE_COMPLETED);
        assertThat(read.get(0).getTask().getContextId()).isEqualTo("ctx-on-a");
        assertThat(ranOn).containsExactly("A:gated");
        // The resumable streams extension holds through the relay: A's first SSE id names B's first message.
        assertThat(headers.get().get(GrpcMetadata.FIRST_EVENT_ID)).isEqualTo("1");
    }

    // PROTOCOL (A2A §3.5.2): a client that cancels its stream ends that stream only, here the one from A too.
    @Test
    void aClientThatCancelsAForwardedStreamClosesTheStreamFromAAndTheTaskGoesOn() throws Exception {
        AgentServer a = a();
        AgentServer b = b();
        leasedTo(a, "ctx-held");
        Context.CancellableContext call = Context.current().withCancellation();
        Iterator<StreamResponse> events = call.call(() ->
                stub(b, ALICE).sendStreamingMessage(send(inContext("ctx-held", "hold"))));
        String taskId = events.next().getTask().getId();
        assertThat(states(List.of(events.next()))).containsExactly(TaskState.TASK_STATE_WORKING);
        assertThat(a.openStreams()).as("A streams the forwarded call").isEqualTo(1);
        assertThat(b.openStreams()).as("B relays it to the caller").isEqualTo(1);

        call.cancel(null);

        // A count has no event to wait on: read again until it falls, within a bound.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((a.openStreams() > 0 || b.openStreams() > 0) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(a.openStreams()).as("A's stream of the cancelled call").isZero();
        assertThat(b.openStreams()).as("B's relay of the cancelled call").isZero();
        assertThat(stub(a, ALICE).getTask(GetTaskRequest.newBuilder().setId(taskId).build()).getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_WORKING);
        release.countDown();
    }

    // DEFECT: a forwarded unary call ignored its deadline, so B waited on A (a thread and a
    // connection held) until A answered, long after the caller had gone.
    @Test
    void aForwardedCallPastItsDeadlineEndsOnBWhileTheTurnGoesOnOnA() throws Exception {
        AgentServer a = a();
        AgentServer b = b();
        leasedTo(a, "ctx-slow");

        StatusRuntimeException late = catchThrowableOfType(StatusRuntimeException.class, () -> stub(b, ALICE)
                .withDeadlineAfter(500, TimeUnit.MILLISECONDS).sendMessage(send(inContext("ctx-slow", "hold"))));
        assertThat(late.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);

        assertEndedOnB(b);
        assertThat(ranOn).containsExactly("A:hold");
        release.countDown();
    }

    // The same for a caller that cancels its unary call: B hangs up on A at once.
    @Test
    void aForwardedCallItsCallerCancelsEndsOnBWhileTheTurnGoesOnOnA() throws Exception {
        AgentServer a = a();
        AgentServer b = b();
        leasedTo(a, "ctx-dropped");
        Context.CancellableContext call = Context.current().withCancellation();
        Thread caller = Thread.ofVirtual().start(() -> call.run(() -> catchThrowableOfType(StatusRuntimeException.class,
                () -> stub(b, ALICE).sendMessage(send(inContext("ctx-dropped", "hold"))))));
        assertThat(holding.await(10, TimeUnit.SECONDS)).as("A holds the turn").isTrue();
        assertThat(ranOn).containsExactly("A:hold");

        call.cancel(null);
        caller.join(Duration.ofSeconds(10));

        assertEndedOnB(b);
        release.countDown();
    }

    /**
     * B records a call once it is over, and A holds the "hold" turn for 20 s, so a record within 10 s
     * is B's own end of the call. A count has no event to wait on: read again until it moves, within a bound.
     */
    private static void assertEndedOnB(AgentServer b) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (answeredSendMessages(b) == 0 && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertThat(answeredSendMessages(b)).as("B's forwarded SendMessage, ended").isEqualTo(1);
    }

    private static long answeredSendMessages(AgentServer server) {
        return server.metrics().registry().find("legate.a2a.requests").tag("method", "SendMessage").timers().stream()
                .mapToLong(t -> t.count()).sum();
    }

    // README "Several instances": CancelTask on B cancels a task running on A, with the strict contract.
    @Test
    void aCancelOnBOfATaskRunningOnAIsCarriedOutByA() throws Exception {
        AgentServer a = a();
        AgentServer b = b();
        leasedTo(a, "ctx-run");
        Iterator<StreamResponse> running = stub(a, ALICE).sendStreamingMessage(send(inContext("ctx-run", "hold")));
        String taskId = running.next().getTask().getId();
        running.next();

        Task canceled = stub(b, ALICE).cancelTask(CancelTaskRequest.newBuilder().setId(taskId).build());

        assertThat(canceled.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        assertThat(ranOn).containsExactly("A:hold");
        expect(() -> stub(b, ALICE).cancelTask(CancelTaskRequest.newBuilder().setId(taskId).build()),
                Status.Code.FAILED_PRECONDITION, "TASK_NOT_CANCELABLE");
    }

    // PROTOCOL (A2A §7): the credential is checked where the call is carried out, and where it arrives.
    @Test
    void theCredentialIsCheckedOnBAndAgainOnA() throws Exception {
        AgentServer a = a();
        AgentServer b = b();
        leasedTo(a, "ctx-a");
        URI gone = deadUrl();
        leases.hold("ctx-gone", gone);

        // Carol is known to B only: B forwards her call, A refuses it as it would refuse her there.
        expect(() -> stub(b, CAROL).sendMessage(send(inContext("ctx-a", "hi"))), Status.Code.UNAUTHENTICATED,
                "UNAUTHENTICATED");
        expect(() -> GrpcBindingTest.drain(stub(b, CAROL).sendStreamingMessage(send(inContext("ctx-a", "hi")))),
                Status.Code.UNAUTHENTICATED, "UNAUTHENTICATED");
        // A wrong credential never leaves B: refused there, though the conversation's instance is gone.
        expect(() -> stub(b, "not-" + ALICE).sendMessage(send(inContext("ctx-gone", "hi"))),
                Status.Code.UNAUTHENTICATED, "UNAUTHENTICATED");
        assertThat(ranOn).isEmpty();
    }

    @Test
    void anInstanceThatCannotBeReachedIsUnavailableNamingIt() throws Exception {
        AgentServer b = b();
        URI gone = deadUrl();
        leases.hold("ctx-gone", gone);

        for (Runnable call : List.<Runnable>of(
                () -> stub(b, ALICE).sendMessage(send(inContext("ctx-gone", "hi"))),
                () -> GrpcBindingTest.drain(stub(b, ALICE).sendStreamingMessage(send(inContext("ctx-gone", "hi")))))) {
            StatusRuntimeException e = org.assertj.core.api.Assertions.catchThrowableOfType(StatusRuntimeException.class,
                    call::run);
            assertThat(e).isNotNull();
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
            assertThat(e.getStatus().getDescription()).contains(gone.toString()).contains("cannot be reached");
        }
        assertThat(ranOn).isEmpty();
    }

    private static URI deadUrl() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return URI.create("http://127.0.0.1:" + s.getLocalPort() + "/");
        }
    }
}
