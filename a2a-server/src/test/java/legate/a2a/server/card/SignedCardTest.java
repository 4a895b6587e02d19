package legate.a2a.server.card;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.jwk.JWKSet;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import legate.a2a.model.signature.CardSigningKey;
import legate.a2a.model.signature.CardVerdict;
import legate.a2a.model.signature.CardVerifier;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.testsupport.Cleanup;
import legate.testsupport.TestPki;
import legate.wire.json.WireJson;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * PROTOCOL (A2A §8.4): with CARD_SIGNING_KEY the served card carries a signature that verifies
 * with the key the server publishes at /.well-known/jwks.json, for every kind and PEM form of key.
 */
class SignedCardTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @ParameterizedTest
    @CsvSource({"ec, false, ES256", "ec, true, ES256", "ed25519, false, EdDSA", "rsa, false, RS256", "rsa, true, RS256"})
    void theServedCardVerifiesWithThePublishedKey(String kind, boolean traditional, String alg) throws Exception {
        CardSigningKey key = CardSigningKey.read(TestPki.create(dir).privateKey("card", kind, traditional));
        AgentExecutor none = (ctx, events) -> events.task(ctx.initialTask());
        AgentServer server = AgentServer.create(ServerConfig.loopback(0).withEdge(ServerEdge.PLAIN.withCardKey(key)),
                port -> AgentCard.newBuilder().setName("signed").setDescription("d").setVersion("1")
                        .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + port + "/")
                                .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                        .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true)).build(),
                none);
        int port = cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);

        JsonNode card = WireJson.mapper().readTree(get(port, AgentCardHandler.PATH).body());
        HttpResponse<String> jwks = get(port, JwksHandler.PATH);
        JWKSet published = JWKSet.parse(jwks.body());
        CardVerdict verdict = new CardVerifier(published.getKeys()).verify(card);

        assertThat(verdict).isEqualTo(new CardVerdict.Verified(key.keyId(), alg));
        assertThat(jwks.headers().firstValue("Content-Type")).hasValue("application/jwk-set+json");
        assertThat(published.getKeys()).singleElement().satisfies(k -> {
            assertThat(k.getKeyID()).isEqualTo(key.keyId());
            assertThat(k.isPrivate()).isFalse();
        });
        assertThat(jwks.body()).doesNotContain("\"d\"");
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
