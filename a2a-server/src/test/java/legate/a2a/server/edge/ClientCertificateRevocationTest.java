package legate.a2a.server.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.ClientCertificates;
import legate.a2a.server.auth.RevocationList;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.observe.Telemetry;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.testsupport.Cleanup;
import legate.testsupport.TestPki;
import legate.testsupport.TestPki.CertificateFiles;
import legate.wire.pem.PemFile;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Revoked client certificates (RFC 5280 §5, README "Authentication", A2A_CLIENT_CRL): a certificate
 * its authority's revocation list names fails the TLS handshake, over HTTPS and gRPC alike, while
 * the authority's other certificates pass; a list the authority publishes again is read when its
 * file changes, so a certificate revoked while the server runs is refused from the next handshake.
 */
class ClientCertificateRevocationTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;
    private TestPki pki;
    private CertificateFiles alice;
    private CertificateFiles mallory;
    private Path crl;
    private AgentServer server;
    private final ServerMetrics metrics = new ServerMetrics();

    @BeforeEach
    void start() throws Exception {
        pki = TestPki.create(Files.createDirectories(dir.resolve("ca")));
        alice = pki.clientCertificate("alice", "alice");
        mallory = pki.clientCertificate("mallory", "mallory");
        crl = pki.revoke(mallory);
        ServerSecurity security = new ServerSecurity(new CallerAuthentication(List.of(new ClientCertificates(
                PemFile.read(pki.caCert()).certificates(), new RevocationList(crl)))), null, 0);
        server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", ServerConfig.DEFAULT_MAX_BODY_BYTES,
                        Duration.ofSeconds(2)).withEdge(ServerEdge.PLAIN.withTls(TlsIdentity.read(pki.serverChain(),
                        pki.serverKey(), Instant.now()))).withSecurity(security),
                MutualTlsTest::card, EdgeFixture.DONE, new InMemoryTaskStore(), Clock.systemUTC(), Telemetry.DEFAULT, metrics);
        cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
    }

    /** A GetTask of a task that does not exist, on a new connection: -32001 means the caller got in. */
    private int getTask(CertificateFiles identity) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .sslContext(pki.clientContext(identity)).build();
        HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\","
                        + "\"params\":{\"id\":\"t\"}}")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        return answer.body().contains("-32001") ? -32001 : answer.statusCode();
    }

    @Test
    void aRevokedCertificateFailsTheHandshakeAndAnotherOfItsAuthorityPasses() throws Exception {
        assertThat(getTask(alice)).isEqualTo(-32001);
        // PEER (JDK, TLS 1.3): the refusal reaches the client as the server's alert or as the closed connection.
        assertThat(catchThrowableOfType(IOException.class, () -> getTask(mallory))).as("mallory's handshake").isNotNull();
    }

    @Test
    void theGrpcPortRefusesARevokedCertificateToo() throws Exception {
        var aliceTls = GrpcSslContexts.forClient().trustManager(pki.caCert().toFile())
                .keyManager(alice.certificate().toFile(), alice.key().toFile()).build();
        var malloryTls = GrpcSslContexts.forClient().trustManager(pki.caCert().toFile())
                .keyManager(mallory.certificate().toFile(), mallory.key().toFile()).build();

        assertThat(EdgeFixture.stub(cleanup, NettyChannelBuilder.forAddress("localhost", server.grpcPort()).sslContext(aliceTls)
                .build()).sendMessage(EdgeFixture.hello()).getTask().getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(catchThrowableOfType(StatusRuntimeException.class, () -> EdgeFixture.stub(cleanup,
                NettyChannelBuilder.forAddress("localhost", server.grpcPort()).sslContext(malloryTls).build())
                .sendMessage(EdgeFixture.hello()))).as("mallory's call").isNotNull();
    }

    // README "Metrics": when the lists are due again, so that an alert comes before the refusals.
    @Test
    void metricsSayWhenTheListsAreDueAgain() throws Exception {
        X509CRL list;
        try (InputStream in = Files.newInputStream(crl)) {
            list = (X509CRL) CertificateFactory.getInstance("X.509").generateCRL(in);
        }
        Matcher gauge = Pattern.compile("(?m)^legate_tls_client_crl_next_update_seconds (\\S+)$").matcher(metrics.scrape());

        assertThat(gauge.find()).as("the gauge is scraped").isTrue();
        assertThat(Double.parseDouble(gauge.group(1))).isEqualTo((double) list.getNextUpdate().toInstant().getEpochSecond());
    }

    // The authority revokes alice while the server runs: its list, written again, is read at the next handshake.
    @Test
    void aListPublishedAgainIsReadAtTheNextHandshake() throws Exception {
        assertThat(getTask(alice)).isEqualTo(-32001);

        assertThat(pki.revoke(alice)).isEqualTo(crl);

        assertThat(catchThrowableOfType(IOException.class, () -> getTask(alice))).as("alice, revoked now").isNotNull();
    }
}
