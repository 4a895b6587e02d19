package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import legate.a2a.model.A2aError;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.ClientCertificates;
import legate.a2a.server.edge.TlsIdentity;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.TaskStore;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import legate.testsupport.TestPki;
import legate.testsupport.TestPki.CertificateFiles;
import legate.wire.pem.PemException;
import legate.wire.pem.PemFile;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Legate's client against an agent that authenticates callers with mutual TLS (A2A §7, the card's
 * {@code mtlsSecurityScheme}; README "Authentication"): the certificate the client is given is
 * presented in every TLS handshake, on every binding, and meets the card's scheme without a header.
 */
class MutualTlsClientTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;
    private TestPki pki;
    private final TaskStore store = new InMemoryTaskStore();
    private int port;

    @BeforeEach
    void start() throws Exception {
        pki = TestPki.create(dir);
        ServerSecurity security = new ServerSecurity(new CallerAuthentication(List.of(
                new ClientCertificates(PemFile.read(pki.caCert()).certificates()))), null, 0);
        TlsIdentity identity = TlsIdentity.read(pki.serverChain(), pki.serverKey(), Instant.now());
        AgentServer server = AgentServer.create(ServerConfig.loopback(0).withEdge(ServerEdge.PLAIN.withTls(identity))
                        .withSecurity(security),
                p -> RevisorCard.build(null, "https://localhost:" + p + "/"), new RevisorExecutor(Duration.ZERO), store,
                Clock.systemUTC());
        port = cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
    }

    private A2aClient client(String binding, CertificateFiles certificate) throws Exception {
        ClientCertificate presented = certificate == null ? null
                : ClientCertificate.read(certificate.certificate(), certificate.key());
        Credentials credentials = certificate == null ? Credentials.NONE : Credentials.NONE.withClientCertificate();
        ClientConfig config = ClientConfig.defaults().withBindings(List.of(Binding.named(binding)))
                .withTrust(ClientTrust.DEFAULTS.withTls(TrustedCertificates.context(pki.caCert(), presented)))
                .withCredentials(credentials);
        return cleanup.register(A2aClient.connect(URI.create("https://localhost:" + port), config));
    }

    // PROTOCOL (A2A §7): the certificate proves the caller on every binding; the task is its CN's.
    @ParameterizedTest
    @ValueSource(strings = {"JSONRPC", "HTTP+JSON", "GRPC"})
    void aClientGivenACertificateIsItsCommonNameOnEveryBinding(String binding) throws Exception {
        A2aClient alice = client(binding, pki.clientCertificate("alice", "alice"));
        assertThat(Credentials.NONE.withClientCertificate().unmet(alice.card())).as("the card's mtls scheme is met").isNull();

        Task done = alice.send(UserMessage.text("Mutual trust. Twice over!")).getTask();
        assertThat(done.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(store.load(done.getId()).orElseThrow().owner()).isEqualTo("alice");
    }

    // Without a certificate the card says what is missing, and a call is refused as unauthenticated.
    @Test
    void aClientWithoutACertificateIsToldWhatTheCardAsksFor() throws Exception {
        A2aClient anonymous = client("JSONRPC", null);
        assertThat(Credentials.NONE.unmet(anonymous.card())).contains("mtls").contains("--client-cert");
        AgentErrorException refused = catchThrowableOfType(AgentErrorException.class,
                () -> anonymous.send(UserMessage.text("hello")));
        assertThat(refused.code()).isEqualTo(A2aError.UNAUTHENTICATED.code());
    }

    // A certificate and a key that are not one pair are named when read, not at the first handshake.
    @Test
    void aKeyThatIsNotTheCertificatesIsRefusedWhenRead() {
        CertificateFiles alice = pki.clientCertificate("alice", "alice");
        CertificateFiles bob = pki.clientCertificate("bob", "bob");
        assertThat(catchThrowableOfType(PemException.class,
                () -> ClientCertificate.read(alice.certificate(), bob.key())))
                .hasMessageContaining("does not belong to the first certificate");
    }
}
