package legate.mcp.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import legate.a2a.client.AgentErrorException;
import legate.a2a.client.ClientCertificate;
import legate.a2a.client.ClientConfig;
import legate.a2a.client.ClientTrust;
import legate.a2a.client.Credentials;
import legate.a2a.client.TrustedCertificates;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.BearerTokens;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.ClientCertificates;
import legate.a2a.server.auth.TokensFile;
import legate.a2a.server.edge.TlsIdentity;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import legate.testsupport.TestPki;
import legate.wire.pem.PemFile;
import lf.a2a.v1.ListTasksRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legate mcp}'s upstream calls carry each alias's own credential (README "Security",
 * clients): two aliases of one authenticating agent, one with a token and one without, as the
 * agent sees them.
 */
class AgentCredentialsTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    @Test
    void eachAliasSendsItsOwnCredentialAndNoOther() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "coder:coder-token-0123456789\n");
        AgentServer agent = AgentServer.create(ServerConfig.loopback(0).withSecurity(new ServerSecurity(
                        new CallerAuthentication(List.of(new BearerTokens(new TokensFile(tokens)))), null, 4)),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"), new RevisorExecutor(Duration.ZERO));
        URI url = URI.create("http://127.0.0.1:" + cleanup.start("Revisor with tokens", agent, AgentServer::start,
                AgentServer::openStreams) + "/");
        Map<String, URI> agents = new LinkedHashMap<>();
        agents.put("coder", url);
        agents.put("stranger", url);

        try (AgentDirectory directory = new AgentDirectory(agents, ClientConfig.defaults(),
                Map.of("coder", new Credentials("coder-token-0123456789", null)))) {
            Duration wait = Duration.ofSeconds(10);
            assertThat(directory.resolve("coder").client(wait).listTasks(ListTasksRequest.getDefaultInstance())
                    .getTotalSize()).isZero();
            assertThatThrownBy(() -> directory.resolve("stranger").client(wait)
                    .listTasks(ListTasksRequest.getDefaultInstance()))
                    .isInstanceOf(AgentErrorException.class).hasMessageContaining("-32000");
        }
    }

    // README "Authentication": an agent that asks for a client certificate (mutual TLS) is reached
    // with the certificate legate mcp is given, its private CA trusted; without one it refuses.
    @Test
    void anAgentAskingForAClientCertificateIsReachedWithTheOneGiven() throws Exception {
        TestPki pki = TestPki.create(dir);
        TestPki.CertificateFiles mcp = pki.clientCertificate("mcp", "mcp-bridge");
        AgentServer agent = AgentServer.create(ServerConfig.loopback(0)
                        .withEdge(ServerEdge.PLAIN.withTls(TlsIdentity.read(pki.serverChain(), pki.serverKey(), Instant.now())))
                        .withSecurity(new ServerSecurity(new CallerAuthentication(List.of(
                                new ClientCertificates(PemFile.read(pki.caCert()).certificates()))), null, 4)),
                port -> RevisorCard.build(null, "https://localhost:" + port + "/"), new RevisorExecutor(Duration.ZERO));
        URI url = URI.create("https://localhost:" + cleanup.start("Revisor asking for certificates", agent,
                AgentServer::start, AgentServer::openStreams) + "/");
        ClientTrust presenting = ClientTrust.DEFAULTS.withTls(TrustedCertificates.context(pki.caCert(),
                ClientCertificate.read(mcp.certificate(), mcp.key())));
        ClientTrust notPresenting = ClientTrust.DEFAULTS.withTls(TrustedCertificates.withCaFile(pki.caCert()));
        Duration wait = Duration.ofSeconds(10);

        try (AgentDirectory directory = new AgentDirectory(Map.of("stats", url), ClientConfig.defaults().withTrust(presenting),
                Map.of("stats", Credentials.NONE.withClientCertificate()))) {
            assertThat(directory.resolve("stats").client(wait).listTasks(ListTasksRequest.getDefaultInstance())
                    .getTotalSize()).isZero();
        }
        try (AgentDirectory directory = new AgentDirectory(Map.of("stats", url), ClientConfig.defaults().withTrust(notPresenting))) {
            assertThatThrownBy(() -> directory.resolve("stats").client(wait).listTasks(ListTasksRequest.getDefaultInstance()))
                    .isInstanceOf(AgentErrorException.class).hasMessageContaining("-32000");
        }
    }
}
