package legate.cli;

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
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.ApiKeys;
import legate.a2a.server.auth.BearerTokens;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.JwtBearer;
import legate.a2a.server.auth.PublicKeyFile;
import legate.a2a.server.auth.TokensFile;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import lf.a2a.v1.ClientCredentialsOAuthFlow;
import lf.a2a.v1.OAuth2SecurityScheme;
import lf.a2a.v1.OAuthFlows;
import lf.a2a.v1.SecurityRequirement;
import lf.a2a.v1.SecurityScheme;
import lf.a2a.v1.StringList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legate client} against an agent that authenticates its callers (README "Security"): the
 * token or API key given is sent as the card asks, and a missing or wrong one ends with the
 * agent's refusal (exit 3) and a line saying what the card asks for.
 */
class ClientCredentialsTest {
    private static final String TOKEN = "client-token-0123456789";
    private static final String KEY = "client-key-9876543210";

    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    @TempDir
    static Path dir;
    private static String url;
    /** An agent whose card asks for an OAuth 2 token from a token endpoint that is never reached here. */
    private static String oauthUrl;
    private static ECKey issuer;

    @BeforeAll
    static void start() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "alice:" + TOKEN + "\nbob:" + KEY + "\n");
        TokensFile file = new TokensFile(tokens);
        issuer = new ECKeyGenerator(Curve.P_256).keyID("issuer").generate();
        Path jwks = Files.writeString(dir.resolve("jwks.json"), new JWKSet(issuer.toPublicJWK()).toString());
        AgentServer revisor = AgentServer.create(ServerConfig.loopback(0).withSecurity(new ServerSecurity(
                        new CallerAuthentication(List.of(new BearerTokens(file), new ApiKeys(ApiKeys.DEFAULT_HEADER, file),
                                JwtBearer.fromKeyFile(PublicKeyFile.read(jwks), "https://issuer.test", "legate"))),
                        null, 4)),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"), new RevisorExecutor(Duration.ZERO));
        url = "http://127.0.0.1:" + cleanup.start("Revisor with tokens", revisor, AgentServer::start, AgentServer::openStreams);
        AgentServer oauth = AgentServer.create(ServerConfig.loopback(0).withSecurity(new ServerSecurity(
                        new CallerAuthentication(List.of(JwtBearer.fromKeyFile(PublicKeyFile.read(jwks), "https://issuer.test",
                                "legate"))), null, 4)),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/").toBuilder()
                        .putSecuritySchemes("oauth", SecurityScheme.newBuilder().setOauth2SecurityScheme(
                                OAuth2SecurityScheme.newBuilder().setFlows(OAuthFlows.newBuilder().setClientCredentials(
                                        ClientCredentialsOAuthFlow.newBuilder().setTokenUrl("http://127.0.0.1:9/token"))))
                                .build())
                        .addSecurityRequirements(SecurityRequirement.newBuilder().putSchemes("oauth",
                                StringList.getDefaultInstance())).build(),
                new RevisorExecutor(Duration.ZERO));
        oauthUrl = "http://127.0.0.1:" + cleanup.start("Revisor with OAuth 2", oauth, AgentServer::start,
                AgentServer::openStreams);
    }

    private record Run(int exit, String out, String err) {
    }

    private static Run legate(Map<String, String> env, String... args) {
        Map<String, String> all = new HashMap<>(env);
        all.putIfAbsent("AGENT_URL", url);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Legate.commandLine(new Settings(all, Map.of()));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new Run(cl.execute(args), out.toString(), err.toString());
    }

    @Test
    void aTokenFromTheFlagIsSentAsTheBearerTheCardAsksFor() {
        Run run = legate(Map.of(), "client", "--token", TOKEN, "ask", "Count these words, please.");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("completed");
    }

    @Test
    void anApiKeyFromTheEnvironmentIsSentInTheHeaderTheCardNames() {
        Run run = legate(Map.of("A2A_API_KEY", KEY), "client", "list");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
    }

    @Test
    void withoutACredentialTheClientSaysWhatTheCardAsksForAndExitsThree() {
        Run run = legate(Map.of(), "client", "list");
        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.err()).contains("the agent's card asks for", "--token / A2A_TOKEN").contains("-32000");
    }

    @Test
    void aWrongTokenIsTheAgentsRefusal() {
        Run run = legate(Map.of("A2A_TOKEN", "not-" + TOKEN), "client", "list");
        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.err()).contains("not accepted").doesNotContain(TOKEN);
    }

    // The third scheme: a JWT access token given as the token is sent as a bearer and accepted as its sub.
    @Test
    void aJwtGivenAsTheTokenIsAcceptedAsItsSubject() throws Exception {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("issuer").build(),
                new JWTClaimsSet.Builder().issuer("https://issuer.test").audience("legate").subject("carol")
                        .expirationTime(Date.from(Instant.now().plusSeconds(600))).build());
        jwt.sign(new ECDSASigner(issuer));
        Run run = legate(Map.of("A2A_TOKEN", jwt.serialize()), "client", "ask", "Signed words count too.");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("completed");
    }

    // README "Clients": the three OAuth 2 client settings go together; half of them is a usage error.
    @Test
    void clientCredentialsWithoutTheirAuthorizationServerAreAUsageError() {
        Run run = legate(Map.of("A2A_CLIENT_ID", "bot", "A2A_CLIENT_SECRET", "s3cret-bot"), "client", "list");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("--token-url, --client-id and --client-secret").doesNotContain("s3cret-bot");
    }

    // The secret goes only to the authorization server it is for: a card naming another is refused
    // (exit 3, as the agent's own refusal of a credential), before anything is sent anywhere.
    @Test
    void aCardNamingAnotherAuthorizationServerIsRefusedWithoutSendingTheSecret() {
        Run run = legate(Map.of("AGENT_URL", oauthUrl, "A2A_TOKEN_URL", "https://idp.example.com", "A2A_CLIENT_ID", "bot",
                "A2A_CLIENT_SECRET", "s3cret-bot"), "client", "list");
        assertThat(run.exit()).as(run.err()).isEqualTo(3);
        assertThat(run.err()).contains("names the authorization server http://127.0.0.1:9/token")
                .contains("https://idp.example.com").doesNotContain("s3cret-bot");
    }
}
