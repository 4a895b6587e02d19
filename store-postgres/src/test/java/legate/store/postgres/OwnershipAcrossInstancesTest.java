package legate.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.BearerTokens;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.ClientCertificates;
import legate.a2a.server.auth.TokensFile;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.edge.TlsIdentity;
import legate.testsupport.Cleanup;
import legate.testsupport.TestPki;
import legate.wire.json.WireJson;
import legate.wire.pem.PemFile;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ownership with two live instances on one real PostgreSQL (README "Ownership", "Several
 * instances"): a task belongs to the principal who started it whichever instance is asked, so
 * another principal finds nothing of it on the other instance either (-32001, as for a task that
 * does not exist), lists none of it, and cannot continue it, while its owner can on both, and a
 * turn the other instance forwards to the one that runs the conversation keeps its owner.
 */
class OwnershipAcrossInstancesTest {
    private static final String ALICE = "alice-token-0123456789";
    private static final String BOB = "bob-token-9876543210";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    static final Cleanup servers = new Cleanup();
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    static Path dir;
    private static PostgresServer postgres;
    private static Path tokens;
    private String a;
    private String b;

    @BeforeAll
    static void startServer() throws Exception {
        postgres = servers.register(PostgresServer.start());
        tokens = Files.writeString(dir.resolve("tokens"), "alice:" + ALICE + "\nbob:" + BOB + "\n");
    }

    @BeforeEach
    void twoInstances() throws Exception {
        DatabaseUrl url = postgres.freshDatabase();
        ServerSecurity security = new ServerSecurity(new CallerAuthentication(List.of(new BearerTokens(new TokensFile(tokens)))),
                null, 0);
        a = instance(url, "a", ServerConfig.loopback(0).withSecurity(security), "http");
        b = instance(url, "b", ServerConfig.loopback(0).withSecurity(security), "http");
    }

    /** One instance on its own store and pool, as a process of its own would have. */
    private String instance(DatabaseUrl url, String id, ServerConfig config, String scheme) throws Exception {
        PostgresTaskStore store = cleanup.register(PostgresTaskStore.open(url, 4));
        PostgresInstances group = store.instances(new InstanceSettings(id, p -> URI.create(scheme + "://127.0.0.1:" + p + "/"),
                Duration.ofSeconds(30), Duration.ofSeconds(10)));
        AgentServer server = AgentServer.create(config,
                port -> LegateCards.jsonRpc("twin", "one of two", scheme + "://127.0.0.1:" + port + "/").build(),
                (ctx, events) -> {
                    events.task(ctx.initialTask());
                    events.status(TaskState.TASK_STATE_COMPLETED, events.agentText("done on " + id));
                }, store, Clock.systemUTC(), group);
        return scheme + "://127.0.0.1:" + cleanup.start("instance " + id, server, AgentServer::start, AgentServer::openStreams)
                + "/";
    }

    private static JsonNode call(String url, String token, String method, String params) throws Exception {
        return WireJson.mapper().readTree(HTTP.send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .header("Authorization", "Bearer " + token)
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method
                        + "\",\"params\":" + params + "}")).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private static String message(String text, String contextId) {
        return "{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\""
                + (contextId == null ? "" : ",\"contextId\":\"" + contextId + "\"")
                + ",\"parts\":[{\"text\":\"" + text + "\"}]}}";
    }

    @Test
    void anotherPrincipalFindsNothingOfATaskOnEitherInstance() throws Exception {
        JsonNode task = call(a, ALICE, "SendMessage", message("mine", null)).path("result").path("task");
        String id = task.path("id").asText();

        assertThat(call(b, ALICE, "GetTask", "{\"id\":\"" + id + "\"}").path("result").path("id").asText()).isEqualTo(id);
        assertThat(call(b, BOB, "GetTask", "{\"id\":\"" + id + "\"}").path("error").path("code").asInt()).isEqualTo(-32001);
        assertThat(call(a, BOB, "GetTask", "{\"id\":\"" + id + "\"}").path("error").path("code").asInt()).isEqualTo(-32001);
        assertThat(call(b, ALICE, "ListTasks", "{}").path("result").path("tasks").findValuesAsText("id")).contains(id);
        assertThat(call(b, BOB, "ListTasks", "{}").path("result").path("tasks").findValuesAsText("id")).doesNotContain(id);
    }

    // README "Several instances": B forwards the next turn of alice's conversation to A, which
    // runs it for alice; bob's turn into her conversation is refused as if it did not exist.
    @Test
    void aForwardedTurnKeepsItsOwnerAndAnotherPrincipalCannotJoinTheConversation() throws Exception {
        String context = call(a, ALICE, "SendMessage", message("first", null)).path("result").path("task")
                .path("contextId").asText();

        JsonNode next = call(b, ALICE, "SendMessage", message("second", context)).path("result").path("task");
        JsonNode intruder = call(b, BOB, "SendMessage", message("let me in", context));

        assertThat(next.path("status").path("message").path("parts").get(0).path("text").asText())
                .as("run where the conversation lives").isEqualTo("done on a");
        assertThat(call(a, ALICE, "GetTask", "{\"id\":\"" + next.path("id").asText() + "\"}").path("result")
                .path("contextId").asText()).isEqualTo(context);
        assertThat(call(a, BOB, "GetTask", "{\"id\":\"" + next.path("id").asText() + "\"}").path("error").path("code")
                .asInt()).isEqualTo(-32001);
        assertThat(intruder.path("error").path("code").asInt()).as(intruder.toString()).isEqualTo(-32602);
        assertThat(intruder.path("error").path("message").asText()).contains("cannot write into");
    }

    // README "Several instances": with mutual TLS, B vouches for the certificate alice presented to
    // it with the key the instances share in this database, so A, which runs her conversation,
    // takes her as the caller; the task is hers on both.
    @Test
    void aClientCertificateIsVouchedForWithTheKeyTheDatabaseHolds() throws Exception {
        TestPki pki = TestPki.create(Files.createDirectories(dir.resolve("pki")));
        TestPki.CertificateFiles alice = pki.clientCertificate("alice", "alice");
        ServerSecurity security = new ServerSecurity(new CallerAuthentication(List.of(
                new ClientCertificates(PemFile.read(pki.caCert()).certificates()))), null, 0);
        ServerConfig config = new ServerConfig("127.0.0.1", 0, "/", ServerConfig.DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(2))
                .withSecurity(security).withEdge(ServerEdge.PLAIN.withTls(
                        TlsIdentity.read(pki.serverChain(), pki.serverKey(), Instant.now())));
        DatabaseUrl url = postgres.freshDatabase();
        String tlsA = instance(url, "tls-a", config, "https");
        String tlsB = instance(url, "tls-b", config, "https");
        HttpClient client = HttpClient.newBuilder().sslContext(pki.clientContext(alice)).build();

        String context = tlsCall(client, tlsA, message("first", null)).path("result").path("task").path("contextId").asText();
        JsonNode next = tlsCall(client, tlsB, message("second", context)).path("result").path("task");

        assertThat(next.path("status").path("message").path("parts").get(0).path("text").asText()).as(next.toString())
                .isEqualTo("done on tls-a");
        assertThat(tlsCall(client, tlsB, "{\"id\":\"" + next.path("id").asText() + "\"}", "GetTask").path("result")
                .path("contextId").asText()).isEqualTo(context);
    }

    private static JsonNode tlsCall(HttpClient client, String url, String params) throws Exception {
        return tlsCall(client, url, params, "SendMessage");
    }

    private static JsonNode tlsCall(HttpClient client, String url, String params, String method) throws Exception {
        return WireJson.mapper().readTree(client.send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method
                        + "\",\"params\":" + params + "}")).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }
}
