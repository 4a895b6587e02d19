package legate.a2a.server.push;

import java.net.http.HttpClient;
import java.time.Duration;
import legate.a2a.model.signature.CardSigningKey;

/**
 * How an agent sends push notifications: which hosts are exempt from the address rules
 * (PUSH_ALLOW_HOSTS), how hard it tries (PUSH_MAX_ATTEMPTS, PUSH_MAX_AGE, PUSH_QUEUE_MAX), the key
 * every delivery is signed with (PUSH_SIGNING_KEY, else the card signing key), and the seams a test
 * replaces: the resolver that {@link WebhookGuard} checks and the HTTP client that posts.
 *
 * @param signingKey signs each delivery's JWT; null: a key made at start, published in the JWKS and
 *                   forgotten at stop (a receiver reads the JWKS by {@code kid} anyway)
 * @param http posts the deliveries; it must not follow redirects; null: one made with the policy's timeout
 */
public record PushSettings(AllowedHosts allowed, PushPolicy policy, CardSigningKey signingKey, HostResolver resolver,
                           HttpClient http) {
    public static final PushSettings DEFAULT = new PushSettings(AllowedHosts.NONE, PushPolicy.DEFAULT, null,
            HostResolver.SYSTEM, null);

    public PushSettings {
        if (allowed == null) {
            allowed = AllowedHosts.NONE;
        }
        if (policy == null) {
            policy = PushPolicy.DEFAULT;
        }
        if (resolver == null) {
            resolver = HostResolver.SYSTEM;
        }
        if (http != null && http.followRedirects() != HttpClient.Redirect.NEVER) {
            // PROTOCOL (A2A §13.2): a redirect would lead a checked delivery to an unchecked address.
            throw new IllegalArgumentException("the push HTTP client must never follow redirects");
        }
    }

    public PushSettings withAllowed(AllowedHosts hosts) {
        return new PushSettings(hosts, policy, signingKey, resolver, http);
    }

    public PushSettings withPolicy(PushPolicy p) {
        return new PushSettings(allowed, p, signingKey, resolver, http);
    }

    public PushSettings withSigningKey(CardSigningKey key) {
        return new PushSettings(allowed, policy, key, resolver, http);
    }

    public PushSettings withResolver(HostResolver r) {
        return new PushSettings(allowed, policy, signingKey, r, http);
    }

    public PushSettings withHttp(HttpClient client) {
        return new PushSettings(allowed, policy, signingKey, resolver, client);
    }

    /** The client that posts: the one given, or a new one that never follows a redirect. */
    HttpClient client() {
        if (http != null) {
            return http;
        }
        Duration connect = policy.timeout();
        return HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).connectTimeout(connect)
                .version(HttpClient.Version.HTTP_1_1).build();
    }
}
