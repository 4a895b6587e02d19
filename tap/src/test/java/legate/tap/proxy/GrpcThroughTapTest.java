package legate.tap.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import legate.a2a.model.grpc.GrpcMetadata;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeEvent.Flagged;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;
import legate.tap.show.ExchangeListener;
import legate.tap.show.Problem;
import legate.tap.show.ProtocolCheck;
import legate.tap.show.ShownHeaders;
import legate.tap.show.WirePrinter;
import legate.testsupport.Cleanup;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import lf.a2a.v1.TaskStatusUpdateEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * gRPC through the tap (README "legate tap"): a connection that opens with the HTTP/2 preface is
 * passed through to the agent's gRPC listener (TAP_GRPC_TARGET) byte for byte, beside HTTP/1.1
 * exchanges on the same port, and each call is an exchange of the tap's, reported to the listeners
 * as HTTP/1.1 ones are: the console, the log, the page and the problem checks see it.
 */
class GrpcThroughTapTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String SERVICE = "/lf.a2a.v1.A2AService/";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final EventRecorder events = new EventRecorder();

    private AgentServer agent() throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                p -> RevisorCard.build(null, "http://127.0.0.1:" + p + "/"), new RevisorExecutor(Duration.ZERO));
        cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
        return server;
    }

    /** A tap forwarding gRPC to {@code grpcPort}, its events through the protocol check to the console and the recorder. */
    private TapProxy tap(URI http, Integer grpcPort) throws Exception {
        TapConfig config = TapConfig.loopback(0, http);
        if (grpcPort != null) {
            config = config.withGrpcTarget("127.0.0.1:" + grpcPort);
        }
        PrintStream out = new PrintStream(console, true, StandardCharsets.UTF_8);
        List<ExchangeListener> shown = List.of(new ProtocolCheck(List.of(new WirePrinter(out, false), events)));
        TapProxy tap = new TapProxy(config, shown, ShownHeaders.A2A, Clock.systemUTC(), Duration.ofSeconds(120), out);
        tap.start();
        cleanup.register(tap);
        return tap;
    }

    private ManagedChannel channel(int port) {
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        cleanup.register(() -> {
            channel.shutdownNow();
            channel.awaitTermination(5, TimeUnit.SECONDS);
        });
        return channel;
    }

    private A2AServiceGrpc.A2AServiceBlockingStub stub(ManagedChannel channel, boolean versioned) {
        Metadata version = new Metadata();
        version.put(GrpcMetadata.VERSION, "1.0");
        A2AServiceGrpc.A2AServiceBlockingStub stub = A2AServiceGrpc.newBlockingStub(channel);
        return versioned ? stub.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(version)) : stub;
    }

    private static SendMessageRequest send(String text) {
        return SendMessageRequest.newBuilder().setMessage(Message.newBuilder().setMessageId("m-" + System.nanoTime())
                .setRole(Role.ROLE_USER).addParts(Part.newBuilder().setText(text))).build();
    }

    private static String header(List<Header> headers, String name) {
        return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).findFirst().orElse(null);
    }

    private static String body(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    // PROTOCOL (RFC 9113 §3.4, A2A §10): gRPC's clear-text HTTP/2 reaches the agent through the tap's
    // own port, and each call is an exchange: the request message its body, a unary answer a
    // response ending with grpc-status, a server stream's messages frames and its status trailers.
    @Test
    void eachGrpcCallIsAnExchangeOfTheTapBesideHttp() throws Exception {
        AgentServer agent = agent();
        TapProxy tap = tap(URI.create("http://127.0.0.1:" + agent.port()), agent.grpcPort());
        A2AServiceGrpc.A2AServiceBlockingStub stub = stub(channel(tap.port()), true);

        assertThat(stub.sendMessage(send("Hello there. Bye!")).getTask().getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_COMPLETED);
        Request unary = events.await(Request.class, WAIT);
        assertThat(unary.method()).isEqualTo("POST");
        assertThat(unary.target()).isEqualTo(SERVICE + "SendMessage");
        assertThat(unary.protocol()).isEqualTo("HTTP/2");
        assertThat(header(unary.headers(), "a2a-version")).isEqualTo("1.0");
        assertThat(header(unary.headers(), "content-type")).startsWith("application/grpc");
        assertThat(body(unary.body())).startsWith("{\"message\":{\"messageId\":\"m-").contains("\"text\":\"Hello there. Bye!\"");
        Response answer = events.await(Response.class, WAIT);
        assertThat(answer.exchange()).isEqualTo(unary.exchange());
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.outcome()).isEqualTo(Outcome.COMPLETE);
        assertThat(header(answer.headers(), "grpc-status")).isEqualTo("0");
        assertThat(body(answer.body())).startsWith("{\"task\":{\"id\":").contains("TASK_STATE_COMPLETED");

        Iterator<StreamResponse> stream = stub.sendStreamingMessage(send("One. Two!"));
        List<StreamResponse> received = new ArrayList<>();
        stream.forEachRemaining(received::add);
        Request streaming = events.await(Request.class, WAIT);
        assertThat(streaming.exchange()).isGreaterThan(unary.exchange());
        assertThat(streaming.target()).isEqualTo(SERVICE + "SendStreamingMessage");
        assertThat(events.await(StreamOpened.class, WAIT).status()).isEqualTo(200);
        List<Frame> frames = new ArrayList<>();
        StreamClosed closed = null;
        while (closed == null) {
            ExchangeEvent e = events.await(ExchangeEvent.class, WAIT);
            if (e instanceof Frame f) {
                frames.add(f);
            } else if (e instanceof StreamClosed c) {
                closed = c;
            }
        }
        // One frame per message the client received, in order, each as ProtoJSON of a StreamResponse.
        assertThat(frames).hasSize(received.size());
        assertThat(frames.getFirst().event().data()).startsWith("{\"task\":");
        assertThat(frames.getLast().event().data()).contains("\"statusUpdate\"").contains("TASK_STATE_COMPLETED");
        assertThat(frames.getFirst().event().id()).isNull();
        assertThat(closed.frames()).isEqualTo(received.size());
        assertThat(closed.outcome()).isEqualTo(Outcome.COMPLETE);
        assertThat(header(closed.trailers(), "grpc-status")).isEqualTo("0");

        // HTTP/1.1 on the same tap port is still the tap's own exchange, numbered after the calls.
        HttpResponse<String> card = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                tap.url().resolve("/.well-known/agent-card.json")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(card.statusCode()).isEqualTo(200);
        Request http = events.await(Request.class, WAIT);
        assertThat(http.protocol()).isEqualTo("HTTP/1.1");
        assertThat(http.exchange()).isGreaterThan(streaming.exchange());
        events.await(Response.class, WAIT);
        // Revisor answers by the protocol: nothing flagged.
        assertThat(events.seen()).noneMatch(Flagged.class::isInstance);
        assertThat(console.toString(StandardCharsets.UTF_8))
                .contains("gRPC (HTTP/2) connection from 127.0.0.1:")
                .contains("forwarded to 127.0.0.1:" + agent.grpcPort())
                .contains("[#" + unary.exchange() + "] -> POST " + SERVICE + "SendMessage HTTP/2")
                .contains("[#" + unary.exchange() + "] <- 200 application/grpc")
                .contains("grpc-status 0 OK")
                .contains("[#" + streaming.exchange() + "] == stream closed: " + received.size() + " frames");
    }

    // PROTOCOL (A2A §10.6): an error's status is shown with its google.rpc.Status decoded, the
    // ErrorInfo inside; a credential in metadata is masked as on HTTP, never shown whole.
    @Test
    void anErrorShowsItsStatusAndErrorInfoAndNoCredential() throws Exception {
        AgentServer agent = agent();
        TapProxy tap = tap(URI.create("http://127.0.0.1:" + agent.port()), agent.grpcPort());
        Metadata secret = new Metadata();
        secret.put(GrpcMetadata.ascii("authorization"), "Bearer secret-token-0123456789");
        A2AServiceGrpc.A2AServiceBlockingStub stub = stub(channel(tap.port()), true)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(secret));
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub.getTask(GetTaskRequest.newBuilder().setId("no-such-task").build()));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);

        Request request = events.await(Request.class, WAIT);
        assertThat(body(request.body())).isEqualTo("{\"id\":\"no-such-task\"}");
        assertThat(header(request.headers(), "authorization")).isEqualTo("Bearer …6789");
        Response answer = events.await(Response.class, WAIT);
        assertThat(header(answer.headers(), "grpc-status")).isEqualTo("5");
        assertThat(header(answer.headers(), "grpc-status-details-bin"))
                .startsWith("{\"code\":5,").contains("\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\"")
                .contains("\"reason\":\"TASK_NOT_FOUND\"").contains("\"domain\":\"a2a-protocol.org\"");
        assertThat(events.seen()).noneMatch(Flagged.class::isInstance);
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("grpc-status 5 NOT_FOUND: ")
                .contains("TASK_NOT_FOUND").doesNotContain("secret-token");
    }

    /**
     * An agent that breaks A2A on gRPC in the ways the tap can see: GetTask ends NOT_FOUND without an
     * ErrorInfo; SubscribeToTask starts with a status update, not the Task, and goes on after the
     * terminal state; SubscribeToTask of {@code "hold"} sends the Task and then waits for the client.
     */
    private static final class BrokenAgent extends A2AServiceGrpc.A2AServiceImplBase {
        final CountDownLatch held = new CountDownLatch(1);

        @Override
        public void getTask(GetTaskRequest request, StreamObserver<Task> answer) {
            answer.onError(Status.NOT_FOUND.withDescription("gone").asRuntimeException());
        }

        @Override
        public void subscribeToTask(SubscribeToTaskRequest request, StreamObserver<StreamResponse> answer) {
            if (request.getId().equals("hold")) {
                answer.onNext(StreamResponse.newBuilder().setTask(Task.newBuilder().setId("hold").setContextId("c")
                        .setStatus(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_WORKING))).build());
                held.countDown();
                return;
            }
            for (TaskState state : List.of(TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED,
                    TaskState.TASK_STATE_WORKING)) {
                answer.onNext(StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                        .setTaskId(request.getId()).setContextId("c").setStatus(TaskStatus.newBuilder().setState(state)))
                        .build());
            }
            answer.onCompleted();
        }
    }

    private Server brokenAgent(BrokenAgent service) throws Exception {
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(service).build();
        server.start();
        cleanup.register(() -> {
            server.shutdownNow();
            server.awaitTermination(5, TimeUnit.SECONDS);
        });
        return server;
    }

    // PROTOCOL (A2A §3.1.6, §3.6, §10.6): the problems the tap flags on HTTP it flags on gRPC: a
    // call without a2a-version, an error without its ErrorInfo, a stream whose first event is not
    // the Task or a Message, an event after the terminal state.
    @Test
    void theProblemsOfHttpAreFlaggedOnGrpcToo() throws Exception {
        Server broken = brokenAgent(new BrokenAgent());
        TapProxy tap = tap(URI.create("http://127.0.0.1:1"), broken.getPort());
        ManagedChannel channel = channel(tap.port());

        catchThrowableOfType(StatusRuntimeException.class,
                () -> stub(channel, false).getTask(GetTaskRequest.newBuilder().setId("t-1").build()));
        Flagged unversioned = events.await(Flagged.class, WAIT);
        assertThat(unversioned.problem()).isEqualTo(Problem.MISSING_A2A_VERSION);
        assertThat(unversioned.detail()).contains(SERVICE + "GetTask");
        Flagged bare = events.await(Flagged.class, WAIT);
        assertThat(bare.problem()).isEqualTo(Problem.ERROR_WITHOUT_ERROR_INFO);
        assertThat(bare.detail()).contains("grpc-status 5 NOT_FOUND");

        stub(channel, true).subscribeToTask(SubscribeToTaskRequest.newBuilder().setId("t-2").build()).forEachRemaining(r -> {
        });
        Flagged first = events.await(Flagged.class, WAIT);
        assertThat(first.problem()).isEqualTo(Problem.FIRST_EVENT_NOT_TASK_OR_MESSAGE);
        Flagged after = events.await(Flagged.class, WAIT);
        assertThat(after.problem()).isEqualTo(Problem.EVENT_AFTER_TERMINAL_STATE);
        assertThat(after.detail()).contains("TASK_STATE_COMPLETED");
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("!! problem: ");
    }

    // A client that gives a stream up (RST_STREAM CANCEL) ends its exchange as a client that hangs up on HTTP.
    @Test
    void aStreamTheClientCancelsEndsAsTheClientGone() throws Exception {
        BrokenAgent service = new BrokenAgent();
        Server agent = brokenAgent(service);
        TapProxy tap = tap(URI.create("http://127.0.0.1:1"), agent.getPort());
        ManagedChannel channel = channel(tap.port());
        Iterator<StreamResponse> stream = stub(channel, true)
                .subscribeToTask(SubscribeToTaskRequest.newBuilder().setId("hold").build());
        assertThat(stream.next().getTask().getId()).isEqualTo("hold");
        assertThat(service.held.await(10, TimeUnit.SECONDS)).isTrue();
        channel.shutdownNow();

        StreamClosed closed = events.await(StreamClosed.class, WAIT);
        assertThat(closed.outcome()).isEqualTo(Outcome.CLIENT_GONE);
        assertThat(closed.frames()).isEqualTo(1);
        assertThat(closed.trailers()).isEmpty();
    }

    // Without TAP_GRPC_TARGET the connection is closed, and the console says what to set.
    @Test
    void withoutAGrpcTargetTheConnectionIsClosedNamingTheKey() throws Exception {
        AgentServer agent = agent();
        TapProxy tap = tap(URI.create("http://127.0.0.1:" + agent.port()), null);
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub(channel(tap.port()), true).sendMessage(send("hi")));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("TAP_GRPC_TARGET").contains("not set");
        assertThat(events.seen()).isEmpty();
    }
}
