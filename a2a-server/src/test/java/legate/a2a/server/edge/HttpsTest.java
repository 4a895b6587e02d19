package legate.a2a.server.edge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import javax.net.ssl.SSLHandshakeException;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerEdge;
import legate.testsupport.Cleanup;
import legate.testsupport.TestPki;
import legate.wire.json.WireJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * HTTPS with a CA made for the test (README "TLS"): the same card and JSON-RPC over HTTP/1.1 and,
 * when the client offers it by ALPN, HTTP/2, streams included; a client that does not trust the
 * CA gets no answer at all.
 */
class HttpsTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    @TempDir
    static Path dir;
    private static TestPki pki;
    private static URI base;

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.create(dir);
        TlsIdentity identity = TlsIdentity.read(pki.serverChain(), pki.serverKey(), Instant.now());
        AgentServer server = EdgeFixture.server(ServerEdge.PLAIN.withTls(identity), "https");
        int port = cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
        base = URI.create("https://localhost:" + port + "/");
    }

    private static HttpClient client(HttpClient.Version version) throws Exception {
        return HttpClient.newBuilder().version(version).sslContext(EdgeFixture.trusting(pki.caCert()))
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static HttpRequest.Builder rpc(String method, String params) {
        return HttpRequest.newBuilder(base).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method
                        + "\",\"params\":" + params + "}"));
    }

    private static final String MESSAGE = "{\"message\":{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}}";

    @Test
    void http11ClientsGetTheCardAndAnswersOverTls() throws Exception {
        HttpClient http = client(HttpClient.Version.HTTP_1_1);

        HttpResponse<String> card = http.send(HttpRequest.newBuilder(base.resolve("/.well-known/agent-card.json")).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> answer = http.send(rpc("SendMessage", MESSAGE).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(card.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(WireJson.mapper().readTree(card.body()).at("/supportedInterfaces/0/url").asText()).startsWith("https://");
        assertThat(WireJson.mapper().readTree(answer.body()).at("/result/task/status/state").asText())
                .isEqualTo("TASK_STATE_COMPLETED");
    }

    /** ALPN: a client offering h2 is served HTTP/2, and an SSE stream arrives whole over it. */
    @Test
    void http2ClientsAreServedHttp2StreamsIncluded() throws Exception {
        HttpClient http = client(HttpClient.Version.HTTP_2);

        HttpResponse<String> answer = http.send(rpc("SendMessage", MESSAGE).build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<Stream<String>> stream = http.send(rpc("SendStreamingMessage",
                MESSAGE.replace("m1", "m2")).build(), HttpResponse.BodyHandlers.ofLines());
        List<String> states;
        try (Stream<String> lines = stream.body()) {
            states = lines.filter(l -> l.startsWith("data:")).map(l -> state(l.substring(5))).toList();
        }

        assertThat(answer.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(stream.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(stream.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/event-stream"));
        assertThat(states).containsExactly("TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED");
    }

    private static String state(String data) {
        try {
            JsonNode result = WireJson.mapper().readTree(data).get("result");
            return result.has("task") ? result.at("/task/status/state").asText() : result.at("/statusUpdate/status/state").asText();
        } catch (IOException e) {
            throw new AssertionError(data, e);
        }
    }

    @Test
    void aClientThatDoesNotTrustTheCaIsRefusedTheHandshake() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

        assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(base.resolve("/.well-known/agent-card.json")).build(),
                HttpResponse.BodyHandlers.ofString())).isInstanceOf(SSLHandshakeException.class);
    }
}
