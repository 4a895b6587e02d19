package legate.a2a.server.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.net.ssl.SSLContext;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.ClientCertificates;
import legate.a2a.server.auth.ForwardedCertificates;
import legate.a2a.server.http.PeerForwarding;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.SharedLeases;
import legate.a2a.server.task.TaskStore;
import legate.testsupport.Cleanup;
import legate.testsupport.TestPki;
import legate.testsupport.TestPki.CertificateFiles;
import legate.wire.json.WireJson;
import legate.wire.pem.PemFile;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutual TLS on several instances of one agent (README "Several instances", "Authentication"): a
 * request whose conversation another instance runs is carried out there, over HTTPS between the
 * instances, and the caller is still the common name of the certificate it presented to the first
 * one, since that instance vouches for the chain it verified. A chain a caller claims in those
 * headers itself, or one vouched for with another key, proves nothing. Two servers in process on
 * real loopback sockets, one store and one set of leases, certificates made by openssl.
 */
class MutualTlsAcrossInstancesTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    static Path dir;
    private static TestPki pki;
    private static CertificateFiles alice;
    private static List<X509Certificate> authorities;

    private final SharedLeases leases = new SharedLeases("https");
    private final TaskStore shared = new InMemoryTaskStore();
    /** The instance each turn ran on, in order. */
    private final List<String> ranOn = new CopyOnWriteArrayList<>();
    private AgentServer a;
    private AgentServer b;

    @BeforeAll
    static void pki() throws Exception {
        pki = TestPki.create(Files.createDirectories(dir.resolve("ca")));
        alice = pki.clientCertificate("alice", "alice");
        authorities = PemFile.read(pki.caCert()).certificates();
    }

    @BeforeEach
    void instances() throws Exception {
        a = instance("A");
        b = instance("B");
    }

    private AgentServer instance(String name) throws Exception {
        ServerSecurity security = new ServerSecurity(new CallerAuthentication(List.of(new ClientCertificates(authorities))),
                null, 0);
        ServerEdge edge = ServerEdge.PLAIN.withTls(TlsIdentity.read(pki.serverChain(), pki.serverKey(), Instant.now()));
        AgentServer server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", ServerConfig.DEFAULT_MAX_BODY_BYTES,
                Duration.ofSeconds(2)).withEdge(edge).withSecurity(security), MutualTlsTest::card,
                (ctx, events) -> {
                    ranOn.add(name);
                    EdgeFixture.DONE.execute(ctx, events);
                }, shared, Clock.systemUTC(), leases.instance());
        cleanup.start("instance " + name, server, AgentServer::start, AgentServer::openStreams);
        return server;
    }

    /** Leases {@code contextId} to {@code server}, as the instance that announced its https URL. */
    private void leasedTo(AgentServer server, String contextId) {
        leases.hold(contextId, URI.create("https://127.0.0.1:" + server.port() + "/"));
    }

    // README "Several instances": B forwards alice's turn to A, which runs the conversation, and A
    // takes alice as the caller although her certificate authenticated her connection to B only.
    @Test
    void aTurnForwardedOverHttpsKeepsTheCallerItsCertificateNamed() throws Exception {
        leasedTo(a, "ctx-on-a");

        JsonNode sent = sendMessage(b, pki.clientContext(alice), "ctx-on-a", Map.of());

        JsonNode task = sent.path("result").path("task");
        assertThat(task.path("status").path("state").asText()).as(sent.toString()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(ranOn).containsExactly("A");
        assertThat(shared.load(task.path("id").asText()).orElseThrow().owner()).isEqualTo("alice");
    }

    // The gRPC binding forwards the same way: the call's certificate goes along with B's proof.
    @Test
    void aGrpcCallForwardedKeepsTheCallerItsCertificateNamed() throws Exception {
        leasedTo(a, "ctx-grpc");
        var tls = GrpcSslContexts.forClient().trustManager(pki.caCert().toFile())
                .keyManager(alice.certificate().toFile(), alice.key().toFile()).build();
        SendMessageRequest hello = EdgeFixture.hello();
        hello = hello.toBuilder().setMessage(hello.getMessage().toBuilder().setContextId("ctx-grpc")).build();

        Task task = EdgeFixture.stub(cleanup, NettyChannelBuilder.forAddress("localhost", b.grpcPort())
                .sslContext(tls).build()).sendMessage(hello).getTask();

        assertThat(task.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(ranOn).containsExactly("A");
        assertThat(shared.load(task.getId()).orElseThrow().owner()).isEqualTo("alice");
    }

    // A caller cannot claim a certificate by sending the headers an instance vouches with: without
    // the instances' key its proof is wrong, and with a proof an instance made for another key too.
    @Test
    void aCertificateClaimedInHeadersWithoutTheInstancesKeyProvesNothing() throws Exception {
        leasedTo(a, "ctx-forged");
        Map<String, String> forged = new LinkedHashMap<>();
        forged.put(PeerForwarding.FORWARDED, "1");
        new ForwardedCertificates(new SecureRandom().generateSeed(32), Clock.systemUTC(), null)
                .vouch(PemFile.read(alice.certificate()).certificates(), forged::put);

        HttpResponse<String> atA = rawSendMessage(a, pki.clientContext(null), "ctx-forged", forged);
        HttpResponse<String> atB = rawSendMessage(b, pki.clientContext(null), "ctx-forged", forged);

        assertThat(atA.statusCode()).isEqualTo(401);
        assertThat(atB.statusCode()).isEqualTo(401);
        assertThat(ranOn).isEmpty();
    }

    // B drops the chain headers a caller sent and vouches for the certificate it verified itself:
    // bob's claim, sent along by alice, never reaches A.
    @Test
    void theForwardingInstanceSendsOnlyTheChainItVerified() throws Exception {
        leasedTo(a, "ctx-claims");
        CertificateFiles bob = pki.clientCertificate("bob", "bob");
        Map<String, String> claim = new LinkedHashMap<>();
        new ForwardedCertificates(new SecureRandom().generateSeed(32), Clock.systemUTC(), null)
                .vouch(PemFile.read(bob.certificate()).certificates(), claim::put);

        JsonNode sent = sendMessage(b, pki.clientContext(alice), "ctx-claims", claim);

        String taskId = sent.path("result").path("task").path("id").asText();
        assertThat(sent.path("result").path("task").path("status").path("state").asText()).as(sent.toString())
                .isEqualTo("TASK_STATE_COMPLETED");
        assertThat(ranOn).containsExactly("A");
        assertThat(shared.load(taskId).orElseThrow().owner()).isEqualTo("alice");
    }

    private static JsonNode sendMessage(AgentServer to, SSLContext tls, String contextId,
                                        Map<String, String> headers) throws Exception {
        return WireJson.mapper().readTree(rawSendMessage(to, tls, contextId, headers).body());
    }

    private static HttpResponse<String> rawSendMessage(AgentServer to, SSLContext tls, String contextId,
                                                       Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("https://localhost:" + to.port() + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\","
                        + "\"params\":{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"contextId\":\""
                        + contextId + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}}}"))
                .timeout(Duration.ofSeconds(20));
        headers.forEach(request::header);
        return HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).sslContext(tls).build()
                .send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
