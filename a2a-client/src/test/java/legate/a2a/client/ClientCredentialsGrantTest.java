package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.JwtBearer;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.TaskStore;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import legate.testsupport.ManualClock;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.ClientCredentialsOAuthFlow;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.OAuth2SecurityScheme;
import lf.a2a.v1.OAuthFlows;
import lf.a2a.v1.SecurityRequirement;
import lf.a2a.v1.SecurityScheme;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.StringList;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The OAuth 2 client credentials grant (RFC 6749 §4.4) for an agent whose card asks for an OAuth 2
 * or OpenID Connect token (A2A §7): Legate's client obtains the token from the authorization server
 * the card names, keeps it until it nears its expiry, and never sends its secret to a server it was
 * not given. A real Legate agent that checks JWTs found by OpenID Connect discovery, and a small
 * authorization server on loopback that issues them, both on real sockets.
 */
class ClientCredentialsGrantTest {
    private static final String AUDIENCE = "legate-grant-test";
    private static final String CLIENT_ID = "reviewer-bot";
    private static final String SECRET = "s3cret-of-the-reviewer-bot";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private final TaskStore store = new InMemoryTaskStore();
    /** Turns the agent ran. */
    private final AtomicInteger turns = new AtomicInteger();
    private AuthorizationServer as;

    @BeforeEach
    void authorizationServer() throws Exception {
        as = new AuthorizationServer();
        cleanup.register(as::stop);
    }

    /** A Revisor that accepts the authorization server's JWTs; its card as {@code card} shapes it. */
    private URI agent(java.util.function.UnaryOperator<AgentCard> card) throws Exception {
        ServerSecurity security = new ServerSecurity(new CallerAuthentication(List.of(
                JwtBearer.fromIssuerDiscovery(as.issuer(), AUDIENCE, Duration.ZERO))), null, 0);
        AgentServer server = AgentServer.create(ServerConfig.loopback(0).withSecurity(security),
                port -> card.apply(RevisorCard.build(null, "http://127.0.0.1:" + port + "/")), (ctx, events) -> {
                    turns.incrementAndGet();
                    new RevisorExecutor(Duration.ZERO).execute(ctx, events);
                }, store, Clock.systemUTC());
        return URI.create("http://127.0.0.1:" + cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams));
    }

    private A2aClient client(URI agent, URI authorizationServer, String secret) {
        ClientConfig config = ClientConfig.defaults().withCredentials(Credentials.NONE.withOAuthClient(
                new ClientCredentials(authorizationServer, CLIENT_ID, secret, List.of())));
        return cleanup.register(A2aClient.connect(agent, config));
    }

    private static SendMessageRequest hello() {
        return SendMessageRequest.newBuilder().setMessage(UserMessage.text("Count these words.", null, null)).build();
    }

    // A2A §7 with OpenID Connect: the card names the discovery document; the client finds the token
    // endpoint there, proves itself with HTTP Basic (RFC 6749 §2.3.1), and is the token's sub.
    @Test
    void anOpenIdConnectCardGetsATokenObtainedWithTheClientsCredentials() throws Exception {
        A2aClient client = client(agent(c -> c), URI.create(as.issuer()), SECRET);

        Task task = client.send(hello()).getTask();
        Task again = client.getTask(GetTaskRequest.newBuilder().setId(task.getId()).build());

        assertThat(task.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(again.getId()).isEqualTo(task.getId());
        assertThat(store.load(task.getId()).orElseThrow().owner()).isEqualTo(CLIENT_ID);
        assertThat(as.tokenRequests).as("one token for both calls").hasSize(1);
        assertThat(as.tokenRequests.getFirst()).containsEntry("grant_type", "client_credentials")
                .containsEntry("authorization", "Basic " + Base64.getEncoder().encodeToString(
                        (CLIENT_ID + ":" + SECRET).getBytes(StandardCharsets.UTF_8)));
    }

    // A2A §7 with OAuth 2: a card's client credentials flow names the token endpoint, and the
    // requirement's scopes are asked for.
    @Test
    void anOAuth2CardsClientCredentialsFlowNamesTheEndpointAndTheScopes() throws Exception {
        URI agent = agent(c -> c.toBuilder().clearSecurityRequirements()
                .putSecuritySchemes("oauth", SecurityScheme.newBuilder().setOauth2SecurityScheme(OAuth2SecurityScheme
                        .newBuilder().setFlows(OAuthFlows.newBuilder().setClientCredentials(ClientCredentialsOAuthFlow
                                .newBuilder().setTokenUrl(as.tokenUrl()).putScopes("tasks.write", "send messages")))).build())
                .addSecurityRequirements(SecurityRequirement.newBuilder().putSchemes("oauth",
                        StringList.newBuilder().addList("tasks.write").build())).build());

        Task task = client(agent, URI.create(as.tokenUrl()), SECRET).send(hello()).getTask();

        assertThat(task.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(as.tokenRequests).singleElement().satisfies(r -> assertThat(r).containsEntry("scope", "tasks.write"));
    }

    // An agent's card could name any server; the secret goes only to the one the client was given.
    @Test
    void aCardNamingAnotherAuthorizationServerNeverGetsTheSecret() throws Exception {
        A2aClient client = client(agent(c -> c), URI.create("https://idp.example.com/"), SECRET);

        CredentialException refused = catchThrowableOfType(CredentialException.class, () -> client.send(hello()));

        assertThat(refused).as("refused before anything is sent").isNotNull();
        assertThat(refused.getMessage()).contains("names the authorization server " + as.issuer())
                .contains("https://idp.example.com/").doesNotContain(SECRET);
        assertThat(as.tokenRequests).isEmpty();
    }

    // RFC 6749 §5.2: the server's error says why; the secret appears in no message.
    @Test
    void aRefusedClientIsToldWhyAndNothingReachesTheAgent() throws Exception {
        A2aClient client = client(agent(c -> c), URI.create(as.issuer()), "not-the-secret");

        CredentialException refused = catchThrowableOfType(CredentialException.class, () -> client.send(hello()));

        assertThat(refused.getMessage()).contains("refused client " + CLIENT_ID).contains("HTTP 401")
                .contains("invalid_client").doesNotContain("not-the-secret");
        assertThat(turns).hasValue(0);
    }

    // A2A §3.3.2: an agent that refuses a token before its expiry (revoked; its clock ahead) gets the
    // call once more with a new one; refused again, the caller is told, and no turn ran twice.
    @Test
    void aTokenTheAgentRefusesIsReplacedOnceAndTheCallMadeAgain() throws Exception {
        A2aClient client = client(agent(c -> c), URI.create(as.issuer()), SECRET);
        as.expiredAhead = 1;

        Task task = client.send(hello()).getTask();

        assertThat(task.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(as.tokenRequests).hasSize(2);
        assertThat(turns).hasValue(1);

        as.expiredAhead = 2;
        client.close();
        A2aClient refusedTwice = client(agent(c -> c), URI.create(as.issuer()), SECRET);
        AgentErrorException refused = catchThrowableOfType(AgentErrorException.class, () -> refusedTwice.send(hello()));
        assertThat(refused.reason()).isEqualTo("UNAUTHENTICATED");
        assertThat(as.tokenRequests).hasSize(4);
        assertThat(turns).hasValue(1);
    }

    // RFC 6749 §3.2: the secret goes over TLS; in the clear only to this machine (a development server).
    @Test
    void theSecretIsNotSentInTheClearToAnotherMachine() {
        SecurityScheme cleartext = oauth2("http://idp.example.com/token");
        AccessTokens tokens = new AccessTokens(cleartext, new ClientCredentials(URI.create("http://idp.example.com/token"),
                CLIENT_ID, SECRET, List.of()), List.of(), HttpClient.newHttpClient(), Duration.ofSeconds(5), Clock.systemUTC());

        CredentialException refused = catchThrowableOfType(CredentialException.class, tokens::current);

        assertThat(refused.getMessage()).contains("is not https").doesNotContain(SECRET);
    }

    // A card's token endpoint that is no URL is the card's fault, told as such, not an exception from connect.
    @Test
    void aCardWhoseTokenEndpointIsNoUrlIsToldAsSuch() throws Exception {
        URI agent = agent(c -> c.toBuilder().clearSecurityRequirements()
                .putSecuritySchemes("oauth", oauth2("http://[not a url"))
                .addSecurityRequirements(SecurityRequirement.newBuilder().putSchemes("oauth", StringList.getDefaultInstance()))
                .build());
        A2aClient client = client(agent, URI.create(as.tokenUrl()), SECRET);

        CredentialException refused = catchThrowableOfType(CredentialException.class, () -> client.send(hello()));

        assertThat(refused.getMessage()).contains("no absolute URL: http://[not a url");
        assertThat(as.tokenRequests).isEmpty();
    }

    // A redirect would carry the secret wherever the token endpoint points: the client follows none.
    @Test
    void aTokenEndpointThatRedirectsIsNotFollowed() throws Exception {
        as.redirectTokenRequests = true;
        URI agent = agent(c -> c.toBuilder().clearSecurityRequirements()
                .putSecuritySchemes("oauth", oauth2(as.tokenUrl()))
                .addSecurityRequirements(SecurityRequirement.newBuilder().putSchemes("oauth", StringList.getDefaultInstance()))
                .build());
        A2aClient client = client(agent, URI.create(as.tokenUrl()), SECRET);

        CredentialException refused = catchThrowableOfType(CredentialException.class, () -> client.send(hello()));

        assertThat(refused.getMessage()).contains("HTTP 307");
        assertThat(as.redirectedRequests).hasValue(0);
        assertThat(turns).hasValue(0);
    }

    private static SecurityScheme oauth2(String tokenUrl) {
        return SecurityScheme.newBuilder().setOauth2SecurityScheme(OAuth2SecurityScheme.newBuilder().setFlows(
                OAuthFlows.newBuilder().setClientCredentials(ClientCredentialsOAuthFlow.newBuilder().setTokenUrl(tokenUrl))))
                .build();
    }

    // A token is used until shortly before its expiry, then replaced, so no call carries an expired one.
    @Test
    void aTokenIsRenewedShortlyBeforeItsExpiryAndNotBefore() throws Exception {
        agent(c -> c);
        SecurityScheme oidc = SecurityScheme.newBuilder().setOpenIdConnectSecurityScheme(
                lf.a2a.v1.OpenIdConnectSecurityScheme.newBuilder().setOpenIdConnectUrl(
                        as.issuer() + "/.well-known/openid-configuration")).build();
        ManualClock clock = new ManualClock();
        AccessTokens tokens = new AccessTokens(oidc, new ClientCredentials(URI.create(as.issuer()), CLIENT_ID, SECRET, List.of()),
                List.of(), HttpClient.newHttpClient(), Duration.ofSeconds(10), clock);

        String first = tokens.current();
        clock.advance(AuthorizationServer.LIFETIME.minus(AccessTokens.EARLY).minusSeconds(1));
        String same = tokens.current();
        clock.advance(Duration.ofSeconds(2));
        String renewed = tokens.current();

        assertThat(same).isEqualTo(first);
        assertThat(renewed).isNotEqualTo(first);
        assertThat(as.tokenRequests).hasSize(2);
    }

    /**
     * An OpenID Connect provider reduced to what the grant needs: its discovery document, its keys,
     * and a token endpoint that issues RS256 JWTs to one client (expires_in {@link #LIFETIME}).
     */
    static final class AuthorizationServer {
        static final Duration LIFETIME = Duration.ofHours(1);
        private final HttpServer http;
        private final RSAKey key;
        /** The form fields of each token request, with its Authorization header as "authorization". */
        final List<Map<String, String>> tokenRequests = new CopyOnWriteArrayList<>();
        /** How many of the next tokens are issued already expired, as a revoked token is refused, while expires_in says an hour. */
        volatile int expiredAhead;
        /** Answer token requests with a 307 to /elsewhere, which counts what reaches it. */
        volatile boolean redirectTokenRequests;
        final AtomicInteger redirectedRequests = new AtomicInteger();

        AuthorizationServer() throws IOException, JOSEException {
            key = new RSAKeyGenerator(2048).keyID("k1").generate();
            http = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            http.createContext("/.well-known/openid-configuration", ex -> json(ex, 200, "{\"issuer\":\"" + issuer()
                    + "\",\"jwks_uri\":\"" + issuer() + "/jwks\",\"token_endpoint\":\"" + tokenUrl() + "\"}"));
            http.createContext("/jwks", ex -> json(ex, 200, new JWKSet(key.toPublicJWK()).toString()));
            http.createContext("/token", this::token);
            http.createContext("/elsewhere", ex -> {
                redirectedRequests.incrementAndGet();
                json(ex, 200, "{\"access_token\":\"stolen\",\"token_type\":\"Bearer\"}");
            });
            http.start();
        }

        String issuer() {
            return "http://127.0.0.1:" + http.getAddress().getPort();
        }

        String tokenUrl() {
            return issuer() + "/token";
        }

        private void token(HttpExchange ex) throws IOException {
            if (redirectTokenRequests) {
                ex.getResponseHeaders().set("Location", issuer() + "/elsewhere");
                json(ex, 307, "{}");
                return;
            }
            Map<String, String> form = new java.util.LinkedHashMap<>(
                    java.util.Arrays.stream(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).split("&"))
                            .filter(p -> p.contains("=")).collect(Collectors.toMap(p -> p.substring(0, p.indexOf('=')),
                                    p -> URLDecoder.decode(p.substring(p.indexOf('=') + 1), StandardCharsets.UTF_8))));
            String authorization = ex.getRequestHeaders().getFirst("Authorization");
            form.put("authorization", authorization);
            String expected = "Basic " + Base64.getEncoder().encodeToString((CLIENT_ID + ":" + SECRET).getBytes(StandardCharsets.UTF_8));
            if (!expected.equals(authorization)) {
                json(ex, 401, "{\"error\":\"invalid_client\",\"error_description\":\"unknown client or wrong secret\"}");
                return;
            }
            tokenRequests.add(form);
            try {
                Instant now = expiredAhead-- > 0 ? Instant.now().minus(LIFETIME).minusSeconds(300) : Instant.now();
                SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("k1").build(),
                        new JWTClaimsSet.Builder().issuer(issuer()).audience(AUDIENCE).subject(CLIENT_ID)
                                .issueTime(Date.from(now)).expirationTime(Date.from(now.plus(LIFETIME)))
                                .jwtID("t" + tokenRequests.size()).build());
                jwt.sign(new RSASSASigner(key));
                json(ex, 200, "{\"access_token\":\"" + jwt.serialize() + "\",\"token_type\":\"Bearer\",\"expires_in\":"
                        + LIFETIME.toSeconds() + "}");
            } catch (JOSEException e) {
                json(ex, 500, "{\"error\":\"server_error\"}");
            }
        }

        private static void json(HttpExchange ex, int status, String body) throws IOException {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(status, bytes.length);
            ex.getResponseBody().write(bytes);
            ex.close();
        }

        void stop() {
            http.stop(0);
        }
    }
}
