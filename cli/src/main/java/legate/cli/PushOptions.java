package legate.cli;

import java.nio.file.Path;
import java.time.Duration;
import legate.a2a.model.signature.CardSigningKey;
import legate.a2a.server.push.AllowedHosts;
import legate.a2a.server.push.PushPolicy;
import legate.a2a.server.push.PushSettings;
import legate.wire.pem.PemException;
import picocli.CommandLine.Option;

/**
 * How {@code legate agent} and {@code legate bridge} send push notifications (README "Push
 * notifications"), as one picocli mixin: the hosts exempt from the SSRF rules, the signing key,
 * and the retry and queue bounds. Unset, pushes go to public https webhooks only, signed with
 * the card signing key or a key made at start.
 */
final class PushOptions {
    static final String PUSH_ALLOW_HOSTS = "PUSH_ALLOW_HOSTS";
    static final String PUSH_SIGNING_KEY = "PUSH_SIGNING_KEY";
    static final String PUSH_MAX_ATTEMPTS = "PUSH_MAX_ATTEMPTS";
    static final String PUSH_MAX_AGE = "PUSH_MAX_AGE";
    static final String PUSH_QUEUE_MAX = "PUSH_QUEUE_MAX";
    static final String DEFAULT_MAX_ATTEMPTS = "8";
    static final String DEFAULT_MAX_AGE = "1h";
    static final String DEFAULT_QUEUE_MAX = "100";

    @Option(names = "--push-allow-hosts", descriptionKey = PUSH_ALLOW_HOSTS, paramLabel = "HOST[:PORT],...",
            description = "Webhook hosts exempt from the private-address rules and allowed plain http, comma-separated,"
                    + " each with an optional :port [PUSH_ALLOW_HOSTS] (default: none).")
    String allowHosts;

    @Option(names = "--push-signing-key", descriptionKey = PUSH_SIGNING_KEY, paramLabel = "PEM",
            description = "Sign each push delivery's JWT with this private key (PEM: EC P-256, Ed25519 or RSA), published"
                    + " at /.well-known/jwks.json [PUSH_SIGNING_KEY] (default: the card signing key, else a key made at start).")
    Path signingKey;

    @Option(names = "--push-max-attempts", descriptionKey = PUSH_MAX_ATTEMPTS, defaultValue = DEFAULT_MAX_ATTEMPTS,
            description = "Attempts per push delivery, the first included [PUSH_MAX_ATTEMPTS] (default: ${DEFAULT-VALUE}).")
    int maxAttempts;

    @Option(names = "--push-max-age", descriptionKey = PUSH_MAX_AGE, defaultValue = DEFAULT_MAX_AGE,
            converter = Durations.class,
            description = "Give a push delivery up this long after its first attempt: 500ms, 30s, 10m, 1h [PUSH_MAX_AGE]"
                    + " (default: ${DEFAULT-VALUE}).")
    Duration maxAge;

    @Option(names = "--push-queue-max", descriptionKey = PUSH_QUEUE_MAX, defaultValue = DEFAULT_QUEUE_MAX,
            description = "Pending deliveries per webhook before the oldest status updates are coalesced [PUSH_QUEUE_MAX]"
                    + " (default: ${DEFAULT-VALUE}).")
    int queueMax;

    /** The options read from the settings alone; null when a number or duration is not well formed (picocli reports it). */
    static PushOptions fromSettings(Settings settings) {
        PushOptions p = new PushOptions();
        p.allowHosts = settings.get(PUSH_ALLOW_HOSTS).orElse(null);
        p.signingKey = settings.get(PUSH_SIGNING_KEY).map(Path::of).orElse(null);
        String attempts = settings.get(PUSH_MAX_ATTEMPTS).orElse(DEFAULT_MAX_ATTEMPTS);
        String queue = settings.get(PUSH_QUEUE_MAX).orElse(DEFAULT_QUEUE_MAX);
        if (!attempts.matches("[0-9]{1,9}") || !queue.matches("[0-9]{1,9}")) {
            return null;
        }
        p.maxAttempts = Integer.parseInt(attempts);
        p.queueMax = Integer.parseInt(queue);
        try {
            p.maxAge = Durations.parse(settings.get(PUSH_MAX_AGE).orElse(DEFAULT_MAX_AGE));
        } catch (IllegalArgumentException e) {
            return null;
        }
        return p;
    }

    /** Reads the signing key and checks every bound, so that a bad one stops the server before it listens. */
    PushSettings settings() throws EdgeOptions.Unusable {
        PushPolicy policy;
        AllowedHosts allowed;
        try {
            allowed = AllowedHosts.parse(allowHosts);
            policy = PushPolicy.DEFAULT.withLimits(maxAttempts, maxAge, queueMax);
        } catch (IllegalArgumentException e) {
            throw new EdgeOptions.Unusable((e.getMessage().startsWith("PUSH_") ? "" : PUSH_ALLOW_HOSTS + ": ")
                    + e.getMessage(), 2);
        }
        PushSettings settings = PushSettings.DEFAULT.withAllowed(allowed).withPolicy(policy);
        if (signingKey == null) {
            return settings;
        }
        try {
            return settings.withSigningKey(CardSigningKey.read(signingKey));
        } catch (PemException e) {
            throw new EdgeOptions.Unusable(PUSH_SIGNING_KEY + ": " + e.getMessage(), 1);
        }
    }
}
