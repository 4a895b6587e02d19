package legate.a2a.server.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.ClientCertificates;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.TaskStore;
import legate.testsupport.Cleanup;
import legate.testsupport.TestPki;
import legate.testsupport.TestPki.CertificateFiles;
import legate.wire.json.WireJson;
import legate.wire.pem.PemFile;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutual TLS as an authentication scheme (A2A §7, the card's {@code mtlsSecurityScheme}; README
 * "Authentication"): a caller proves who it is with a client certificate the server's client
 * authority issued, checked in the TLS handshake, and is its subject's common name, over HTTPS and
 * over gRPC alike. JDK and grpc-java clients on real loopback sockets, certificates made by openssl.
 */
class MutualTlsTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    @TempDir
    static Path dir;
    private static TestPki pki;
    private static CertificateFiles alice;
    private static CertificateFiles bob;
    /** "alice", but issued by an authority the server does not trust. */
    private static CertificateFiles forgedAlice;
    private static AgentServer server;
    private static final TaskStore store = new InMemoryTaskStore();

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.create(Files.createDirectories(dir.resolve("ca")));
        alice = pki.clientCertificate("alice", "alice");
        bob = pki.clientCertificate("bob", "bob");
        forgedAlice = TestPki.create(Files.createDirectories(dir.resolve("other"))).clientCertificate("forged", "alice");
        List<X509Certificate> authorities = PemFile.read(pki.caCert()).certificates();
        ServerSecurity security = new ServerSecurity(new CallerAuthentication(List.of(new ClientCertificates(authorities))),
                null, 0);
        ServerEdge edge = ServerEdge.PLAIN.withTls(TlsIdentity.read(pki.serverChain(), pki.serverKey(), Instant.now()));
        server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", ServerConfig.DEFAULT_MAX_BODY_BYTES,
                Duration.ofSeconds(2)).withEdge(edge).withSecurity(security), MutualTlsTest::card, EdgeFixture.DONE, store,
                Clock.systemUTC());
        cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
    }

    /** A card over https on {@code port}, streaming, as the TLS tests of this package serve it. */
    static AgentCard card(int port) {
        return AgentCard.newBuilder().setName("mtls").setDescription("d").setVersion("1")
                .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("https://localhost:" + port + "/")
                        .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true))
                .addDefaultInputModes("text/plain").addDefaultOutputModes("text/plain").build();
    }

    // PROTOCOL (A2A §7): the caller is who its certificate names; its tasks are its own (README "Ownership").
    @Test
    void aCallerWithACertificateOfTheClientAuthorityIsItsCommonName() throws Exception {
        JsonNode sent = call(client(alice), "SendMessage", "{\"message\":{\"messageId\":\"m-" + System.nanoTime()
                + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}}");
        String taskId = sent.path("result").path("task").path("id").asText();
        assertThat(sent.path("result").path("task").path("status").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(store.load(taskId).orElseThrow().owner()).isEqualTo("alice");

        assertThat(call(client(alice), "GetTask", "{\"id\":\"" + taskId + "\"}").path("result").path("id").asText())
                .isEqualTo(taskId);
        // Another certificate is another principal: alice's task does not exist for bob.
        assertThat(call(client(bob), "GetTask", "{\"id\":\"" + taskId + "\"}").path("error").path("code").asInt())
                .isEqualTo(-32001);
    }

    // PROTOCOL (A2A §3.3.2, §7): without a certificate the caller is refused 401 (no WWW-Authenticate
    // names a client certificate), while the public card, which declares the scheme, is served.
    @Test
    void aCallerWithoutACertificateIsRefusedAndTheCardSaysWhatToPresent() throws Exception {
        HttpClient anonymous = HttpClient.newBuilder().sslContext(context(null)).build();
        HttpResponse<String> refused = anonymous.send(rpc("GetTask", "{\"id\":\"t\"}"), HttpResponse.BodyHandlers.ofString());
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.headers().allValues("WWW-Authenticate")).isEmpty();
        JsonNode error = WireJson.mapper().readTree(refused.body()).path("error");
        assertThat(error.path("code").asInt()).isEqualTo(-32000);
        assertThat(error.path("message").asText()).contains("TLS client certificate");

        JsonNode card = WireJson.mapper().readTree(anonymous.send(HttpRequest.newBuilder(url("/.well-known/agent-card.json"))
                .build(), HttpResponse.BodyHandlers.ofString()).body());
        assertThat(card.path("securitySchemes").path("mtls").path("mtlsSecurityScheme").path("description").asText())
                .contains("client certificate");
        assertThat(card.path("securityRequirements").toString()).contains("\"mtls\"");
    }

    // A certificate the client authority did not issue never gets past the handshake, whatever name it claims.
    @Test
    void aCertificateFromAnotherAuthorityFailsTheHandshake() throws Exception {
        IOException refused = catchThrowableOfType(IOException.class, () -> call(client(forgedAlice), "GetTask", "{\"id\":\"t\"}"));
        // PEER (JDK, TLS 1.3): the client has finished its part of the handshake when the server
        // rejects its certificate, so the refusal reaches it as the server's alert or, as often, as
        // the connection the server closed under its request (a broken pipe, a reset).
        assertThat(refused).as("the handshake's refusal").isNotNull();
        // The same server answers a certificate its authority issued: the refusal was the certificate's.
        assertThat(call(client(alice), "GetTask", "{\"id\":\"t\"}").path("error").path("code").asInt()).isEqualTo(-32001);
    }

    // The gRPC port asks for the same certificate, checked against the same authority.
    @Test
    void grpcCallersAreTheirCertificatesCommonNameToo() throws Exception {
        assertThat(stub(alice).sendMessage(EdgeFixture.hello()).getTask().getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        StatusRuntimeException refused = catchThrowableOfType(StatusRuntimeException.class, () -> stub(null).sendMessage(EdgeFixture.hello()));
        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    }

    // A client certificate travels in the TLS handshake: the scheme without TLS is refused at once.
    @Test
    void mutualTlsWithoutTlsIsRefused() throws Exception {
        ServerSecurity security = new ServerSecurity(new CallerAuthentication(List.of(
                new ClientCertificates(PemFile.read(pki.caCert()).certificates()))), null, 0);
        assertThatThrownBy(() -> AgentServer.create(ServerConfig.loopback(0).withSecurity(security), MutualTlsTest::card,
                EdgeFixture.DONE)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mutual TLS needs TLS");
    }

    private static JsonNode call(HttpClient client, String method, String params) throws Exception {
        return WireJson.mapper().readTree(client.send(rpc(method, params), HttpResponse.BodyHandlers.ofString()).body());
    }

    private static HttpRequest rpc(String method, String params) {
        return HttpRequest.newBuilder(url("/")).header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method
                        + "\",\"params\":" + params + "}")).timeout(Duration.ofSeconds(10)).build();
    }

    private static URI url(String path) {
        return URI.create("https://localhost:" + server.port() + path);
    }

    private static HttpClient client(CertificateFiles identity) throws Exception {
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).sslContext(context(identity)).build();
    }

    private static SSLContext context(CertificateFiles identity) {
        return pki.clientContext(identity);
    }

    private static A2AServiceGrpc.A2AServiceBlockingStub stub(CertificateFiles identity) throws Exception {
        var tls = GrpcSslContexts.forClient().trustManager(pki.caCert().toFile());
        if (identity != null) {
            tls.keyManager(identity.certificate().toFile(), identity.key().toFile());
        }
        return EdgeFixture.stub(cleanup, NettyChannelBuilder.forAddress("localhost", server.grpcPort())
                .sslContext(tls.build()).build());
    }
}
