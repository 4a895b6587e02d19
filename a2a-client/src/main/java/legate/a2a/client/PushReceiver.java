package legate.a2a.client;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Supplier;
import legate.a2a.model.A2aException;
import legate.a2a.model.ProtoJson;
import legate.a2a.model.signature.CardVerifier;
import legate.a2a.model.signature.PublicJwk;
import lf.a2a.v1.StreamResponse;

/**
 * A webhook that checks what it is sent before it believes it (README "Push notifications"): each
 * POST must carry Legate's push JWT, signed by a key of the agent's JWKS, naming the task the body
 * is about and the SHA-256 of the body, issued within {@link #MAX_SKEW}; when a token is expected,
 * the configuration's token (or {@code Authorization: Bearer}) must match. A notification that
 * passes is answered 200 and handed to the sink; one that does not, 401 (or 400 for a body that is
 * not a StreamResponse), and the sink hears why.
 *
 * <p>What {@code legate push-receiver} runs, for people trying push out; a service that receives
 * pushes does the same checks with any JOSE library.
 */
public final class PushReceiver implements AutoCloseable {
    /** The header Legate's push JWT comes in. */
    public static final String SIGNATURE_HEADER = "X-Legate-Push-Signature";
    /** PROTOCOL (A2A §4.3.3, v1.0.0 example): the configuration's token. */
    public static final String TOKEN_HEADER = "X-A2A-Notification-Token";
    /** How far a JWT's iat may be from this machine's clock. */
    public static final Duration MAX_SKEW = Duration.ofMinutes(5);
    /** The shortest time between two loads of the JWKS for a key id it did not hold. */
    private static final Duration RELOAD_AT_MOST_EVERY = Duration.ofSeconds(10);

    /** What one POST came to. */
    public sealed interface Outcome {
        /** A verified notification: the event, its task, its number in the task and the JWT's id. */
        record Accepted(StreamResponse event, String taskId, long seq, String jwtId) implements Outcome {
        }

        /** A POST that was refused, and why. */
        record Refused(String reason) implements Outcome {
        }
    }

    private final HttpServer server;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final Supplier<List<JWK>> jwks;
    private final String expectedToken;
    private final Clock clock;
    private final Consumer<Outcome> sink;
    private volatile List<JWK> keys;
    private volatile Instant loaded;

    /**
     * @param bind where to listen (loopback unless the receiver must be reachable from elsewhere)
     * @param jwks loads the agent's JWKS; called at start and again for a key id it lacks
     * @param expectedToken the token the configuration was registered with, or null to check none
     */
    public PushReceiver(InetSocketAddress bind, Supplier<List<JWK>> jwks, String expectedToken, Clock clock,
                        Consumer<Outcome> sink) throws IOException {
        this.jwks = jwks;
        this.expectedToken = expectedToken;
        this.clock = clock;
        this.sink = sink;
        this.keys = jwks.get();
        this.loaded = clock.instant();
        this.server = HttpServer.create(bind, 50);
        server.setExecutor(threads);
        server.createContext("/", this::handle);
    }

    /** Starts listening; returns the port. */
    public int start() {
        server.start();
        return server.getAddress().getPort();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.getResponseHeaders().add("Allow", "POST");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readNBytes(4 * 1024 * 1024);
            }
            Outcome outcome = check(exchange, body);
            sink.accept(outcome);
            exchange.sendResponseHeaders(outcome instanceof Outcome.Accepted ? 200
                    : ((Outcome.Refused) outcome).reason().startsWith("the body") ? 400 : 401, -1);
        }
    }

    private Outcome check(HttpExchange exchange, byte[] body) {
        if (expectedToken != null) {
            String token = exchange.getRequestHeaders().getFirst(TOKEN_HEADER);
            String auth = exchange.getRequestHeaders().getFirst("Authorization");
            boolean matches = equal(token, expectedToken) || equal(auth, "Bearer " + expectedToken);
            if (!matches) {
                return new Outcome.Refused("the notification token is missing or wrong");
            }
        }
        String jwt = exchange.getRequestHeaders().getFirst(SIGNATURE_HEADER);
        if (jwt == null) {
            return new Outcome.Refused("no " + SIGNATURE_HEADER + " header: not signed");
        }
        JWTClaimsSet claims;
        try {
            SignedJWT signed = SignedJWT.parse(jwt);
            JWK key = key(signed.getHeader().getKeyID());
            if (key == null) {
                return new Outcome.Refused("signed with key " + signed.getHeader().getKeyID() + ", not in the agent's JWKS");
            }
            if (!signed.verify(CardVerifier.verifier(PublicJwk.toPublicKey(key)))) {
                return new Outcome.Refused("the signature does not verify with key " + key.getKeyID());
            }
            claims = signed.getJWTClaimsSet();
        } catch (ParseException | JOSEException | IllegalArgumentException e) {
            return new Outcome.Refused("the signature cannot be checked: " + e.getMessage());
        }
        Instant iat = claims.getIssueTime() == null ? null : claims.getIssueTime().toInstant();
        Instant now = clock.instant();
        if (iat == null || iat.isBefore(now.minus(MAX_SKEW)) || iat.isAfter(now.plus(MAX_SKEW))) {
            return new Outcome.Refused("the JWT was issued at " + iat + ", not within " + MAX_SKEW.toMinutes()
                    + " minutes of now: a replay, or a clock that is off");
        }
        Object hash = claims.getClaim("request_body_sha256");
        if (!(hash instanceof String h) || !equal(h, sha256(body))) {
            return new Outcome.Refused("the body is not the one the JWT signs (request_body_sha256)");
        }
        StreamResponse event;
        try {
            event = ProtoJson.parse(new String(body, StandardCharsets.UTF_8), StreamResponse.newBuilder()).build();
        } catch (A2aException e) {
            return new Outcome.Refused("the body is not a StreamResponse: " + e.getMessage());
        }
        String taskId = taskOf(event);
        Object claimed = claims.getClaim("taskId");
        if (!taskId.equals(claimed)) {
            return new Outcome.Refused("the JWT names task " + claimed + " but the body is about task " + taskId);
        }
        Object seq = claims.getClaim("seq");
        return new Outcome.Accepted(event, taskId, seq instanceof Number n ? n.longValue() : 0, claims.getJWTID());
    }

    /**
     * The key of {@code kid}, loading the JWKS again when it is not there (a rotated key), at most
     * every few seconds, or at once while none was loaded (the agent was not up yet).
     */
    private JWK key(String kid) {
        JWK found = find(kid);
        Instant now = clock.instant();
        if (found == null && (keys.isEmpty() || now.isAfter(loaded.plus(RELOAD_AT_MOST_EVERY)))) {
            loaded = now;
            keys = jwks.get();
            found = find(kid);
        }
        return found;
    }

    private JWK find(String kid) {
        for (JWK k : keys) {
            if (kid != null && kid.equals(k.getKeyID())) {
                return k;
            }
        }
        return null;
    }

    static String taskOf(StreamResponse e) {
        return switch (e.getPayloadCase()) {
            case TASK -> e.getTask().getId();
            case STATUS_UPDATE -> e.getStatusUpdate().getTaskId();
            case ARTIFACT_UPDATE -> e.getArtifactUpdate().getTaskId();
            case MESSAGE -> e.getMessage().getTaskId();
            case PAYLOAD_NOT_SET -> "";
        };
    }

    private static boolean equal(String a, String b) {
        return a != null && MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
