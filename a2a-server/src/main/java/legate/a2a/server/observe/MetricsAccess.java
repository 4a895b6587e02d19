package legate.a2a.server.observe;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.function.Predicate;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.Presented;
import legate.a2a.server.auth.Unauthenticated;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * Who may read {@code /metrics}. Secure by default: with no token it is open only on a loopback
 * bind, and refused (with the reason) on a wider one.
 */
public sealed interface MetricsAccess {
    /** A loopback bind and no token: whoever can reach the port can already reach the agent. */
    record Open() implements MetricsAccess {
    }

    /** {@code Authorization: Bearer <METRICS_TOKEN>}, compared in constant time. */
    record Token(byte[] expected) implements MetricsAccess {
        public boolean matches(String authorization) {
            if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
                return false;
            }
            return MessageDigest.isEqual(expected, authorization.substring(7).strip().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Not served: {@code why} says what to set. */
    record Refused(String why) implements MetricsAccess {
    }

    /**
     * The A2A endpoints' authentication decides (bearer, API key, JWT), METRICS_TOKEN beside it; the
     * predicate says whether the request's credentials may read the metrics.
     */
    record Authenticated(Predicate<Request> allows) implements MetricsAccess {
    }

    /**
     * The rule of METRICS_TOKEN, and with an A2A scheme configured ({@code auth} enabled) also the
     * credentials the A2A endpoints accept: either one reads the metrics, on any bind.
     *
     * @param where the listener, for the refusal's message ("0.0.0.0:8080")
     */
    static MetricsAccess of(String token, boolean loopbackBind, String where, CallerAuthentication auth) {
        if (!auth.isEnabled()) {
            return of(token, loopbackBind, where);
        }
        Token metricsToken = token == null || token.isBlank() ? null
                : new Token(token.strip().getBytes(StandardCharsets.UTF_8));
        return new Authenticated(request -> {
            if (metricsToken != null && metricsToken.matches(request.getHeaders().get(HttpHeader.AUTHORIZATION))) {
                return true;
            }
            try {
                auth.authenticate(Presented.of(request));
                return true;
            } catch (Unauthenticated refused) {
                return false;
            }
        });
    }

    /**
     * The rule of METRICS_TOKEN: a token when one is set, otherwise open on a loopback bind only.
     *
     * @param where the listener, for the refusal's message ("0.0.0.0:8080")
     */
    static MetricsAccess of(String token, boolean loopbackBind, String where) {
        if (token != null && !token.isBlank()) {
            return new Token(token.strip().getBytes(StandardCharsets.UTF_8));
        }
        if (loopbackBind) {
            return new Open();
        }
        return new Refused("/metrics is not served on " + where + ", which is not a loopback address, without a "
                + "token: set METRICS_TOKEN (scrapers send it as a bearer token) or METRICS_PORT (a loopback listener)");
    }
}
