package legate.tap.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
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
import java.util.concurrent.TimeUnit;
import legate.a2a.model.grpc.GrpcMetadata;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.tap.show.ShownHeaders;
import legate.testsupport.Cleanup;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * gRPC through the tap (README "legate tap"): a connection that opens with the HTTP/2 preface is
 * passed through to the agent's gRPC listener (TAP_GRPC_TARGET) byte for byte, beside HTTP/1.1
 * exchanges on the same port, and the console shows each call: method, messages as ProtoJSON, status.
 */
class GrpcThroughTapTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private final Console console = new Console();

    /**
     * The tap's console. DEFECT: the tap prints a call's status line after it has relayed the trailers,
     * on its own thread, so a client can see its answer before the line exists; a test awaits it.
     */
    private static final class Console extends ByteArrayOutputStream {
        @Override
        public synchronized void write(byte[] b, int off, int len) {
            super.write(b, off, len);
            notifyAll();
        }

        @Override
        public synchronized void write(int b) {
            super.write(b);
            notifyAll();
        }

        /** What has been shown once {@code line} is among it, or what there is after 10 s. */
        synchronized String awaitShown(String line) throws InterruptedException {
            long end = System.nanoTime() + 10_000_000_000L;
            String shown;
            while (!(shown = toString(StandardCharsets.UTF_8)).contains(line) && System.nanoTime() < end) {
                wait(Math.max(1, (end - System.nanoTime()) / 1_000_000));
            }
            return shown;
        }
    }

    private AgentServer agent() throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                p -> RevisorCard.build(null, "http://127.0.0.1:" + p + "/"), new RevisorExecutor(Duration.ZERO));
        cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
        return server;
    }

    private TapProxy tap(TapConfig config) throws Exception {
        TapProxy tap = new TapProxy(config, List.of(), ShownHeaders.A2A, Clock.systemUTC(), Duration.ofSeconds(120),
                new PrintStream(console, true, StandardCharsets.UTF_8));
        tap.start();
        cleanup.register(tap);
        return tap;
    }

    private A2AServiceGrpc.A2AServiceBlockingStub stub(int port) {
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        cleanup.register(() -> {
            channel.shutdownNow();
            channel.awaitTermination(5, TimeUnit.SECONDS);
        });
        Metadata version = new Metadata();
        version.put(GrpcMetadata.VERSION, "1.0");
        return A2AServiceGrpc.newBlockingStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(version));
    }

    private static SendMessageRequest send(String text) {
        return SendMessageRequest.newBuilder().setMessage(Message.newBuilder().setMessageId("m-" + System.nanoTime())
                .setRole(Role.ROLE_USER).addParts(Part.newBuilder().setText(text))).build();
    }

    // PROTOCOL (RFC 9113 §3.4): gRPC's clear-text HTTP/2 reaches the agent through the tap's own port.
    @Test
    void aGrpcConnectionIsForwardedToTheAgentsGrpcListenerBesideHttp() throws Exception {
        AgentServer agent = agent();
        TapProxy tap = tap(TapConfig.loopback(0, URI.create("http://127.0.0.1:" + agent.port()))
                .withGrpcTarget("127.0.0.1:" + agent.grpcPort()));
        A2AServiceGrpc.A2AServiceBlockingStub stub = stub(tap.port());

        assertThat(stub.sendMessage(send("Hello there. Bye!")).getTask().getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_COMPLETED);
        Iterator<StreamResponse> events = stub.sendStreamingMessage(send("One. Two!"));
        List<StreamResponse> all = new ArrayList<>();
        events.forEachRemaining(all::add);
        assertThat(all.getFirst().hasTask()).isTrue();
        assertThat(all.getLast().getStatusUpdate().getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        // HTTP/1.1 on the same tap port is still the tap's own exchange.
        HttpResponse<String> card = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                tap.url().resolve("/.well-known/agent-card.json")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(card.statusCode()).isEqualTo(200);
        String shown = console.awaitShown("/lf.a2a.v1.A2AService/SendStreamingMessage status 0 OK");
        assertThat(shown).contains("gRPC (HTTP/2) connection forwarded to 127.0.0.1:" + agent.grpcPort())
                .contains("its calls are shown here only");
        // Each call: its method and version, its messages as ProtoJSON, its status.
        assertThat(shown).containsPattern("gRPC \\d+ POST /lf\\.a2a\\.v1\\.A2AService/SendMessage  a2a-version: 1\\.0")
                .contains("request {\"message\":{\"messageId\":\"m-")
                .contains("\"parts\":[{\"text\":\"Hello there. Bye!\"}]")
                .containsPattern("response \\{\"task\":\\{\"id\":")
                .contains("/lf.a2a.v1.A2AService/SendMessage status 0 OK")
                .containsPattern("gRPC \\d+ response \\{\"statusUpdate\":.*TASK_STATE_COMPLETED")
                .contains("/lf.a2a.v1.A2AService/SendStreamingMessage status 0 OK")
                .doesNotContain("stopped").doesNotContain("cannot");
    }

    // PROTOCOL (A2A §10.6): an error's status is shown with its ErrorInfo reason; credentials never.
    @Test
    void anErrorIsShownWithItsReasonAndNoCredentialIsShown() throws Exception {
        AgentServer agent = agent();
        TapProxy tap = tap(TapConfig.loopback(0, URI.create("http://127.0.0.1:" + agent.port()))
                .withGrpcTarget("127.0.0.1:" + agent.grpcPort()));
        Metadata secret = new Metadata();
        secret.put(GrpcMetadata.ascii("authorization"), "Bearer secret-token-0123456789");
        A2AServiceGrpc.A2AServiceBlockingStub stub = stub(tap.port())
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(secret));
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub.getTask(GetTaskRequest.newBuilder().setId("no-such-task").build()));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
        String shown = console.awaitShown("ErrorInfo TASK_NOT_FOUND");
        assertThat(shown).contains("request {\"id\":\"no-such-task\"}")
                .contains("/lf.a2a.v1.A2AService/GetTask status 5 NOT_FOUND: ")
                .contains("ErrorInfo TASK_NOT_FOUND (a2a-protocol.org)")
                .doesNotContain("secret-token");
    }

    // Without TAP_GRPC_TARGET the connection is closed, and the console says what to set.
    @Test
    void withoutAGrpcTargetTheConnectionIsClosedNamingTheKey() throws Exception {
        AgentServer agent = agent();
        TapProxy tap = tap(TapConfig.loopback(0, URI.create("http://127.0.0.1:" + agent.port())));
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub(tap.port()).sendMessage(send("hi")));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("TAP_GRPC_TARGET").contains("not set");
    }
}
