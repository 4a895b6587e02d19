package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.a2a.server.edge.TlsIdentity;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import legate.testsupport.TestPki;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Legate's client over gRPC to an agent serving TLS (README "TLS"): a card fetched over https
 * means its gRPC interface is dialed with TLS, trusting the same private CA as https
 * ({@code --ca-cert}), the host name checked against the certificate.
 */
class GrpcTlsClientTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    @Test
    void aPrivateCaTrustedForHttpsIsTrustedForGrpcToo() throws Exception {
        TestPki pki = TestPki.create(dir);
        TlsIdentity identity = TlsIdentity.read(pki.serverChain(), pki.serverKey(), Instant.now());
        AgentServer server = AgentServer.create(ServerConfig.loopback(0).withEdge(ServerEdge.PLAIN.withTls(identity)),
                port -> RevisorCard.build(null, "https://localhost:" + port + "/"), new RevisorExecutor(Duration.ZERO));
        int port = cleanup.start("the TLS agent", server, AgentServer::start, AgentServer::openStreams);
        ClientConfig config = ClientConfig.defaults().withBindings(List.of(Binding.GRPC_1_0))
                .withTrust(ClientTrust.DEFAULTS.withTls(TrustedCertificates.withCaFile(pki.caCert())));
        A2aClient client = cleanup.register(A2aClient.connect(URI.create("https://localhost:" + port), config));

        assertThat(client.endpoint().getUrl()).isEqualTo("localhost:" + server.grpcPort());
        assertThat(client.send(UserMessage.text("Over TLS. Twice!")).getTask().getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_COMPLETED);
    }
}
