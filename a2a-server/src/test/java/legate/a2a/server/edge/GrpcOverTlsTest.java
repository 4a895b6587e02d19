package legate.a2a.server.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import java.time.Instant;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerEdge;
import legate.testsupport.Cleanup;
import legate.testsupport.TestPki;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gRPC binding with the server's TLS identity (README "TLS"): with TLS_CERT/TLS_KEY the gRPC
 * port speaks TLS too (ALPN h2), with the same certificate as the HTTPS listener, and nothing in
 * clear text.
 */
class GrpcOverTlsTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    @TempDir
    static Path dir;
    private static TestPki pki;
    private static AgentServer server;

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.create(dir);
        TlsIdentity identity = TlsIdentity.read(pki.serverChain(), pki.serverKey(), Instant.now());
        server = EdgeFixture.server(ServerEdge.PLAIN.withTls(identity), "https");
        cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
    }

    private static A2AServiceGrpc.A2AServiceBlockingStub stub(ManagedChannel channel) {
        return EdgeFixture.stub(cleanup, channel);
    }

    private static SendMessageRequest hello() {
        return EdgeFixture.hello();
    }

    @Test
    void aClientTrustingTheCaIsAnsweredOverTls() throws Exception {
        ManagedChannel channel = NettyChannelBuilder.forAddress("localhost", server.grpcPort())
                .sslContext(GrpcSslContexts.forClient().trustManager(pki.caCert().toFile()).build()).build();
        assertThat(stub(channel).sendMessage(hello()).getTask().getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(server.handler().card().getSupportedInterfacesList())
                .anySatisfy(i -> assertThat(i.getUrl()).isEqualTo("localhost:" + server.grpcPort()));
    }

    @Test
    void aClearTextClientIsNotServed() {
        ManagedChannel channel = NettyChannelBuilder.forAddress("localhost", server.grpcPort()).usePlaintext().build();
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, () -> stub(channel).sendMessage(hello()));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    }
}
