package legate.a2a.server.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import legate.a2a.model.A2aMethods;
import legate.a2a.server.ServerSecurity;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * JWT access tokens as bearer credentials, against a JWKS the test serves itself on 127.0.0.1
 * (README "Security"): a valid token is accepted as its {@code sub}; expired, not-yet-valid,
 * wrong-audience, wrong-issuer, unsigned ({@code alg: none}), HMAC and forged tokens are refused
 * with 401; a token signed by a key the JWKS gained later (rotation) is accepted after one fetch.
 */
class JwtBearerTest {
    private static final String ISSUER = "https://issuer.test";
    private static final String AUDIENCE = "legate-test";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;
    private final AtomicReference<String> served = new AtomicReference<>();
    private final AtomicInteger fetches = new AtomicInteger();
    /** The issuer's OpenID Connect configuration as served; empty: 404. */
    private final AtomicReference<String> configuration = new AtomicReference<>("");
    private final AtomicInteger discoveries = new AtomicInteger();
    private HttpServer jwks;
    private URI jwksUrl;
    private RSAKey k1;
    private SecuredAgent agent;

    @BeforeEach
    void start() throws Exception {
        k1 = new RSAKeyGenerator(2048).keyID("k1").generate();
        served.set(new JWKSet(k1.toPublicJWK()).toString());
        jwks = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        jwks.createContext("/jwks.json", exchange -> {
            fetches.incrementAndGet();
            byte[] body = served.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        jwks.createContext("/.well-known/openid-configuration", exchange -> {
            discoveries.incrementAndGet();
            byte[] body = configuration.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(body.length == 0 ? 404 : 200, body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        jwks.start();
        jwksUrl = URI.create("http://127.0.0.1:" + jwks.getAddress().getPort() + "/jwks.json");
        agent = new SecuredAgent(cleanup, new ServerSecurity(new CallerAuthentication(
                List.of(JwtBearer.fromJwksUrl(jwksUrl, ISSUER, AUDIENCE, Duration.ZERO))), null, 0));
    }

    @AfterEach
    void stopJwks() {
        jwks.stop(0);
    }

    private static JWTClaimsSet.Builder claims() {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().issuer(ISSUER).audience(AUDIENCE).subject("alice")
                .issueTime(Date.from(now)).expirationTime(Date.from(now.plusSeconds(300)));
    }

    private static String rsa(RSAKey key, JWTClaimsSet claims) throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }

    private int status(String token) throws Exception {
        return agent.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "Bearer " + token)).statusCode();
    }

    @Test
    void aValidTokenIsAcceptedAsItsSubject() throws Exception {
        String token = rsa(k1, claims().build());
        assertThat(status(token)).isEqualTo(200);
        // The principal is sub: alice's task is hers, whatever token she comes back with.
        String taskId = agent.call(token, A2aMethods.SEND_MESSAGE, SecuredAgent.message("hi", ""))
                .at("/result/task/id").asText();
        String again = rsa(k1, claims().jwtID("another").build());
        assertThat(agent.call(again, A2aMethods.GET_TASK, "{\"id\":\"" + taskId + "\"}").at("/result/id").asText())
                .isEqualTo(taskId);
        String bob = rsa(k1, claims().subject("bob").build());
        assertThat(agent.call(bob, A2aMethods.GET_TASK, "{\"id\":\"" + taskId + "\"}").at("/error/code").asInt())
                .isEqualTo(-32001);
    }

    @Test
    void expiredNotYetValidWrongAudienceAndWrongIssuerAreRefused() throws Exception {
        Instant now = Instant.now();
        assertThat(status(rsa(k1, claims().expirationTime(Date.from(now.minusSeconds(600))).build()))).isEqualTo(401);
        assertThat(status(rsa(k1, claims().notBeforeTime(Date.from(now.plusSeconds(600))).build()))).isEqualTo(401);
        assertThat(status(rsa(k1, claims().audience("another-service").build()))).isEqualTo(401);
        assertThat(status(rsa(k1, claims().issuer("https://someone-else.test").build()))).isEqualTo(401);
        assertThat(status(rsa(k1, claims().subject(null).build()))).isEqualTo(401);
        // Within the clock skew a token just expired is still accepted: clocks disagree a little.
        assertThat(status(rsa(k1, claims().expirationTime(Date.from(now.minusSeconds(20))).build()))).isEqualTo(200);
    }

    // The classic JWT attacks: no signature, a signature by a key nobody published, an HMAC "signed" with the public key.
    @Test
    void unsignedForgedAndHmacTokensAreRefused() throws Exception {
        assertThat(status(new PlainJWT(claims().build()).serialize())).isEqualTo(401);
        RSAKey impostor = new RSAKeyGenerator(2048).keyID("k1").generate();
        assertThat(status(rsa(impostor, claims().build()))).isEqualTo(401);
        SignedJWT hmac = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID("k1").build(), claims().build());
        hmac.sign(new MACSigner(k1.toPublicJWK().toRSAPublicKey().getEncoded()));
        assertThat(status(hmac.serialize())).isEqualTo(401);
        String valid = rsa(k1, claims().build());
        String[] parts = valid.split("\\.");
        String tampered = parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(
                claims().subject("mallory").build().toString().getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        assertThat(status(tampered)).isEqualTo(401);
    }

    // README "Security": an unknown kid makes the JWKS be fetched again, which is how a rotation arrives.
    @Test
    void aKeyAddedToTheJwksIsFetchedWhenATokenNamesIt() throws Exception {
        assertThat(status(rsa(k1, claims().build()))).isEqualTo(200);
        int before = fetches.get();
        RSAKey k2 = new RSAKeyGenerator(2048).keyID("k2").generate();
        served.set(new JWKSet(k2.toPublicJWK()).toString());
        assertThat(status(rsa(k2, claims().build()))).isEqualTo(200);
        assertThat(fetches.get()).isGreaterThan(before);
        // k1 left the set: its tokens are refused from now on.
        assertThat(status(rsa(k1, claims().build()))).isEqualTo(401);
    }

    // README "Security": the fetch an unknown kid causes is rate-limited, so tokens with made-up kids
    // cannot make this server hammer the issuer's JWKS endpoint.
    @Test
    void madeUpKidsFetchTheJwksAtMostOncePerInterval() throws Exception {
        SecuredAgent limited = new SecuredAgent(cleanup, new ServerSecurity(new CallerAuthentication(
                List.of(JwtBearer.fromJwksUrl(jwksUrl, ISSUER, AUDIENCE, Duration.ofMinutes(4)))), null, 0));
        String valid = rsa(k1, claims().build());
        assertThat(limited.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "Bearer " + valid)).statusCode())
                .isEqualTo(200);
        int before = fetches.get();
        for (int i = 0; i < 5; i++) {
            String madeUp = rsa(new RSAKeyGenerator(2048).keyID("made-up-" + i).generate(), claims().build());
            assertThat(limited.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "Bearer " + madeUp))
                    .statusCode()).isEqualTo(401);
        }
        assertThat(fetches.get() - before).isLessThanOrEqualTo(1);
    }

    // OpenID Connect Discovery 1.0 §4: with only the issuer's URL, its configuration document names
    // the JWKS; the card declares the scheme as OpenID Connect, naming that document. The document is
    // read when the first token comes, not at start.
    @Test
    void theIssuersKeysAreDiscoveredFromItsUrl() throws Exception {
        String issuer = "http://127.0.0.1:" + jwks.getAddress().getPort();
        configuration.set("{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + jwksUrl + "\"}");
        SecuredAgent discovering = new SecuredAgent(cleanup, new ServerSecurity(new CallerAuthentication(
                List.of(JwtBearer.fromIssuerDiscovery(issuer, AUDIENCE, Duration.ZERO))), null, 0));
        assertThat(discoveries).as("nothing read at start").hasValue(0);

        String token = rsa(k1, claims().issuer(issuer).build());
        assertThat(discovering.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "Bearer " + token)).statusCode())
                .isEqualTo(200);
        String card = discovering.card().body();
        assertThat(card).contains("\"openIdConnectSecurityScheme\"")
                .contains("\"openIdConnectUrl\":\"" + issuer + "/.well-known/openid-configuration\"");
        // A token of the issuer named in A2A_JWT_ISSUER only.
        assertThat(discovering.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "Bearer " + rsa(k1, claims().build())))
                .statusCode()).isEqualTo(401);
    }

    // PROTOCOL (OIDC Discovery §4.3): a document for another issuer is not believed, and an issuer
    // that cannot be read yet refuses tokens until it can, without a restart.
    @Test
    void aDocumentForAnotherIssuerIsNotBelievedAndAnUnreadableOneIsTriedAgain() throws Exception {
        String issuer = "http://127.0.0.1:" + jwks.getAddress().getPort() + "/";
        SecuredAgent discovering = new SecuredAgent(cleanup, new ServerSecurity(new CallerAuthentication(
                List.of(JwtBearer.fromIssuerDiscovery(issuer, AUDIENCE, Duration.ZERO))), null, 0));
        String token = rsa(k1, claims().issuer(issuer).build());
        Map<String, String> bearer = Map.of("Authorization", "Bearer " + token);

        assertThat(discovering.post(A2aMethods.LIST_TASKS, "{}", bearer).statusCode()).as("no document yet").isEqualTo(401);
        configuration.set("{\"issuer\":\"https://elsewhere.test/\",\"jwks_uri\":\"" + jwksUrl + "\"}");
        assertThat(discovering.post(A2aMethods.LIST_TASKS, "{}", bearer).statusCode()).as("another issuer's").isEqualTo(401);
        configuration.set("{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + jwksUrl + "\"}");
        assertThat(discovering.post(A2aMethods.LIST_TASKS, "{}", bearer).statusCode()).isEqualTo(200);
        assertThat(fetches).as("the JWKS read only once believed").hasValue(1);
    }

    // An issuer that is not a URL cannot be discovered: said at start, naming the keys to set instead.
    @Test
    void anIssuerThatIsNotAUrlCannotBeDiscovered() {
        assertThat(catchThrowableOfType(IllegalArgumentException.class,
                () -> JwtBearer.fromIssuerDiscovery("issuer-without-scheme", AUDIENCE, Duration.ZERO)))
                .hasMessageContaining("A2A_JWKS_URL or A2A_JWT_KEY");
    }

    // A2A_JWT_KEY: a PEM public key without a kid verifies tokens whatever kid they carry.
    @Test
    void aPemKeyFileVerifiesEcTokens() throws Exception {
        ECKey ec = new ECKeyGenerator(Curve.P_256).keyID("issuer-key").generate();
        Path pem = dir.resolve("issuer.pem");
        Files.writeString(pem, "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(ec.toECPublicKey().getEncoded()) + "\n-----END PUBLIC KEY-----\n");
        JwtBearer scheme = JwtBearer.fromKeyFile(PublicKeyFile.read(pem), ISSUER, AUDIENCE);
        SecuredAgent pemAgent = new SecuredAgent(cleanup, new ServerSecurity(new CallerAuthentication(List.of(scheme)), null, 0));
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("issuer-key").build(), claims().build());
        jwt.sign(new ECDSASigner(ec));
        assertThat(pemAgent.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "Bearer " + jwt.serialize()))
                .statusCode()).isEqualTo(200);
        ECKey other = new ECKeyGenerator(Curve.P_256).keyID("issuer-key").generate();
        SignedJWT forged = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("issuer-key").build(), claims().build());
        forged.sign(new ECDSASigner(other));
        assertThat(pemAgent.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "Bearer " + forged.serialize()))
                .statusCode()).isEqualTo(401);
    }
}
