package legate.a2a.server.edge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.jwk.JWKSet;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import legate.a2a.model.signature.CardSigningKey;
import legate.a2a.model.signature.CardVerdict;
import legate.a2a.model.signature.CardVerifier;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.ApiKeys;
import legate.a2a.server.auth.BearerTokens;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.TokensFile;
import legate.a2a.server.card.AgentCardHandler;
import legate.a2a.server.card.JwksHandler;
import legate.testsupport.Cleanup;
import legate.testsupport.TestPki;
import legate.wire.json.WireJson;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edge and authentication together, as one server configured with both serves them: the
 * signed card is the card with its security schemes (A2A §8.4: the signature covers the card as
 * served), and a browser's preflight, which never carries a credential, passes CORS for the API
 * key header the scheme reads, while the call itself is refused 401 with the origin echoed.
 */
class SecuredEdgeTest {
    private static final String APP = "https://app.example";
    private static final String TOKEN = "alice-token-0123456789";
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    @TempDir
    static Path dir;
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static CardSigningKey key;
    private static URI base;

    @BeforeAll
    static void start() throws Exception {
        key = CardSigningKey.read(TestPki.create(dir).privateKey("card", "ec", false));
        TokensFile tokens = new TokensFile(Files.writeString(dir.resolve("tokens"), "alice:" + TOKEN + "\n"));
        ServerSecurity security = new ServerSecurity(new CallerAuthentication(
                List.of(new BearerTokens(tokens), new ApiKeys("X-Team-Key", tokens))), null, 0);
        ServerEdge edge = ServerEdge.PLAIN.withCardKey(key).withCors(new CorsPolicy(Set.of(APP), "X-Team-Key"));
        AgentServer server = AgentServer.create(ServerConfig.loopback(0).withSecurity(security).withEdge(edge),
                port -> AgentCard.newBuilder().setName("secured").setDescription("d").setVersion("1")
                        .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + port + "/")
                                .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                        .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true)).build(),
                EdgeFixture.DONE);
        base = URI.create("http://127.0.0.1:" + cleanup.start("the agent", server, AgentServer::start,
                AgentServer::openStreams) + "/");
    }

    // PROTOCOL (A2A §8.4): signed after the schemes are declared; signed before, the served card would not verify.
    @Test
    void theSignedCardIsTheCardWithItsSecuritySchemes() throws Exception {
        JsonNode card = WireJson.mapper().readTree(get(AgentCardHandler.PATH).body());
        JWKSet published = JWKSet.parse(get(JwksHandler.PATH).body());

        assertThat(card.path("securitySchemes").has("bearer")).isTrue();
        assertThat(card.path("securitySchemes").has("apiKey")).isTrue();
        assertThat(new CardVerifier(published.getKeys()).verify(card)).isEqualTo(new CardVerdict.Verified(key.keyId(), "ES256"));
    }

    // A preflight carries no credential (Fetch standard): it must pass CORS without one, naming the scheme's header.
    @Test
    void aPreflightNeedsNoCredentialAndAllowsTheSchemesApiKeyHeader() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(base).method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", APP).header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type,a2a-version,x-team-key").build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(r.statusCode()).isEqualTo(204);
        assertThat(r.headers().firstValue("Access-Control-Allow-Headers")).hasValueSatisfying(v -> assertThat(v).contains("X-Team-Key"));
    }

    // The browser's script can read a refusal only with the origin echoed, and needs WWW-Authenticate exposed.
    @Test
    void aCallWithoutCredentialIsRefusedAndTheBrowserMayReadWhy() throws Exception {
        HttpResponse<String> refused = post(null);
        HttpResponse<String> allowed = post(TOKEN);

        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.headers().firstValue("Access-Control-Allow-Origin")).hasValue(APP);
        assertThat(refused.headers().firstValue("Access-Control-Expose-Headers"))
                .hasValueSatisfying(v -> assertThat(v).contains("WWW-Authenticate"));
        assertThat(refused.headers().allValues("WWW-Authenticate")).isNotEmpty();
        assertThat(allowed.statusCode()).isEqualTo(200);
        assertThat(allowed.body()).contains("\"result\"");
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String apiKey) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base).header("Origin", APP).header("Content-Type", "application/json")
                .header("A2A-Version", "1.0").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":{}}"));
        if (apiKey != null) {
            b.header("X-Team-Key", apiKey);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
