package legate.a2a.server.push;

import com.nimbusds.jwt.JWTClaimsSet;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;
import java.util.Date;
import java.util.HexFormat;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import legate.a2a.model.ProtoJson;
import legate.a2a.model.signature.CardSigningKey;
import legate.a2a.server.task.LoggedEvent;
import lf.a2a.v1.TaskPushNotificationConfig;

/**
 * One delivery attempt of one event to one webhook: the URL re-checked by {@link WebhookGuard},
 * then a POST of the event as a StreamResponse, signed, with the configuration's credentials.
 *
 * <p>PROTOCOL (A2A §4.3.3): the body is one StreamResponse in ProtoJSON, whatever binding the agent
 * serves, as {@code application/a2a+json}; with {@code authentication} set, the request carries
 * {@code Authorization: <scheme> <credentials>}; the {@code token} goes in
 * {@code X-A2A-Notification-Token}, as the v1.0.0 example and @a2a-js/sdk send it.
 *
 * <p>Every attempt carries a JWT in {@link #SIGNATURE_HEADER}, signed with the agent's push key
 * (published in its JWKS): {@code iss} the agent, {@code aud} the webhook URL, {@code iat}, a fresh
 * {@code jti}, {@code taskId}, {@code seq} (the event's number in the task, the same on every
 * retry, for a receiver to drop duplicates) and {@code request_body_sha256}, the hex SHA-256 of the
 * exact body bytes. README "Push notifications" shows a receiver's check.
 */
final class WebhookPost {
    /** The header that carries the delivery's JWT. */
    static final String SIGNATURE_HEADER = "X-Legate-Push-Signature";
    /** PROTOCOL (A2A §4.3.3, v1.0.0 example): where the configuration's token is sent. */
    static final String TOKEN_HEADER = "X-A2A-Notification-Token";
    /** PROTOCOL (A2A §4.3.3, v1.0.1): the content type of a webhook body. */
    static final String CONTENT_TYPE = "application/a2a+json";
    static final String BODY_HASH_CLAIM = "request_body_sha256";

    /** What one attempt came to. */
    sealed interface Outcome {
        /** A 2xx answer. */
        record Delivered(int status) implements Outcome {
        }

        /** PROTOCOL (README "Push notifications"): 410 Gone says the webhook is no more; its config goes. */
        record Gone() implements Outcome {
        }

        /** Anything else: refused by the guard, no connection, a timeout, a non-2xx answer (redirects included). */
        record Failed(String reason) implements Outcome {
        }
    }

    private final WebhookGuard guard;
    private final Supplier<HttpClient> http;
    private final Supplier<CardSigningKey> key;
    private final String issuer;
    private final Duration timeout;

    WebhookPost(WebhookGuard guard, Supplier<HttpClient> http, Supplier<CardSigningKey> key, String issuer,
                Duration timeout) {
        this.guard = guard;
        this.http = http;
        this.key = key;
        this.issuer = issuer;
        this.timeout = timeout;
    }

    Outcome attempt(TaskPushNotificationConfig config, LoggedEvent event, Instant now) {
        URI url;
        try {
            // DNS may have changed since the registration: checked again before every attempt.
            url = guard.check(config.getUrl());
        } catch (WebhookRefused e) {
            return new Outcome.Failed(e.getMessage());
        }
        byte[] body = ProtoJson.print(event.event()).getBytes(StandardCharsets.UTF_8);
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(timeout)
                .header("Content-Type", CONTENT_TYPE)
                .header(SIGNATURE_HEADER, jwt(config, event.seq(), body, now))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (config.hasAuthentication() && !config.getAuthentication().getScheme().isEmpty()) {
            request.header("Authorization", config.getAuthentication().getScheme() + " "
                    + config.getAuthentication().getCredentials());
        }
        if (!config.getToken().isEmpty()) {
            request.header(TOKEN_HEADER, config.getToken());
        }
        // DEFECT: the request's timeout covers the answer's headers only; a receiver that answered 200 and
        // then trickled its body held the delivery, a socket and a thread forever, and the task's later
        // events were never sent. One deadline covers the whole attempt, body included; past it the
        // exchange is cancelled (its connection closed) and the attempt fails like any other.
        CompletableFuture<HttpResponse<Void>> exchange = http.get().sendAsync(request.build(), DiscardedBody.handler());
        try {
            int status = exchange.get(timeout.toNanos(), TimeUnit.NANOSECONDS).statusCode();
            if (status >= 200 && status < 300) {
                return new Outcome.Delivered(status);
            }
            if (status == 410) {
                return new Outcome.Gone();
            }
            return new Outcome.Failed(status >= 300 && status < 400 ? "HTTP " + status + " (redirects are not followed)"
                    : "HTTP " + status);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            return new Outcome.Failed("no complete answer within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            if (cause instanceof HttpTimeoutException) {
                return new Outcome.Failed("no answer within " + timeout.toMillis() + " ms");
            }
            return new Outcome.Failed(cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.toString());
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            return new Outcome.Failed("the server is stopping");
        }
    }

    private String jwt(TaskPushNotificationConfig config, long seq, byte[] body, Instant now) {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .audience(config.getUrl())
                .issueTime(Date.from(now))
                .jwtID(UUID.randomUUID().toString())
                .claim("taskId", config.getTaskId())
                .claim("seq", seq)
                .claim(BODY_HASH_CLAIM, sha256(body));
        if (issuer != null) {
            claims.issuer(issuer);
        }
        return key.get().signJwt(claims.build());
    }

    static String sha256(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
