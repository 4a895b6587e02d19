package legate.revisor;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.ApiKeys;
import legate.a2a.server.auth.BearerTokens;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.JwtBearer;
import legate.a2a.server.auth.PublicKeyFile;
import legate.a2a.server.auth.TokensFile;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.NodeScript;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every scheme against the official JavaScript client (@a2a-js/sdk 1.2.0) and its authenticating
 * fetch, through {@code interop/a2a-auth-check.mjs}: bearer tokens, an API key and a JWT, a call
 * without a credential refused, and a second principal finding nothing of the first one's.
 */
class AuthInteropTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    @Test
    void theOfficialJavaScriptClientAuthenticatesWithEachScheme() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "alice:alice-token-0123456789\nbob:bob-token-9876543210\n");
        ECKey issuer = new ECKeyGenerator(Curve.P_256).keyID("issuer").generate();
        Path jwks = Files.writeString(dir.resolve("jwks.json"), new JWKSet(issuer.toPublicJWK()).toString());
        TokensFile file = new TokensFile(tokens);
        CallerAuthentication callers = new CallerAuthentication(List.of(new BearerTokens(file),
                new ApiKeys(ApiKeys.DEFAULT_HEADER, file),
                JwtBearer.fromKeyFile(PublicKeyFile.read(jwks), "https://issuer.test", "legate")));
        AgentServer server = AgentServer.create(ServerConfig.loopback(0).withSecurity(new ServerSecurity(callers, null, 4)),
                p -> RevisorCard.build(null, "http://127.0.0.1:" + p + "/"), new RevisorExecutor(Duration.ZERO));
        int port = cleanup.start("Revisor with authentication", server, AgentServer::start, AgentServer::openStreams);

        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("issuer").build(),
                new JWTClaimsSet.Builder().issuer("https://issuer.test").audience("legate").subject("carol")
                        .expirationTime(Date.from(Instant.now().plusSeconds(600))).build());
        jwt.sign(new ECDSASigner(issuer));

        ChildRun run = NodeScript.test("a2a-auth-check.mjs").env("A2A_URL", "http://127.0.0.1:" + port)
                .env("ALICE_TOKEN", "alice-token-0123456789").env("BOB_TOKEN", "bob-token-9876543210")
                .env("BOB_API_KEY", "bob-token-9876543210").env("API_KEY_HEADER", ApiKeys.DEFAULT_HEADER)
                .env("CAROL_JWT", jwt.serialize())
                .run(Duration.ofSeconds(90));

        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        assertThat(run.stdout()).contains("# pass 6", "# fail 0", "# skipped 0");
    }
}
