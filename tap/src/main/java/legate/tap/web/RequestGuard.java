package legate.tap.web;

import com.sun.net.httpserver.HttpExchange;
import java.net.URI;
import java.util.List;
import legate.wire.http.KnownHosts;

/**
 * Who the inspector answers. The page shows an agent's traffic and can send it messages, so another
 * web site open in the same browser must not read it or post to it:
 *
 * <ul>
 *   <li>On a loopback bind, a request must name a loopback host ({@code 127.0.0.1}, {@code localhost},
 *       {@code [::1]}, any port): a DNS-rebinding page that reaches the port under its own name is refused.</li>
 *   <li>A request that changes something (the composer, an import) must carry the header
 *       {@value #HEADER}: a page of another origin can send that only after a CORS preflight, which the
 *       inspector never approves; and its {@code Origin}, when sent, must be the inspector's own.</li>
 * </ul>
 */
final class RequestGuard {
    /** The header the page's own script sends with every request that changes something. */
    static final String HEADER = "X-Legate-Inspector";
    private static final KnownHosts LOOPBACK = KnownHosts.of(List.of());

    private final boolean loopbackOnly;

    /** @param loopbackOnly whether the inspector is bound to loopback, so only loopback names are answered */
    RequestGuard(boolean loopbackOnly) {
        this.loopbackOnly = loopbackOnly;
    }

    /** Why the request is refused, or null when it may be served. */
    String refusal(HttpExchange exchange, boolean changes) {
        String host = exchange.getRequestHeaders().getFirst("Host");
        if (loopbackOnly && !LOOPBACK.allows(host)) {
            return "the inspector answers only loopback names (Host: " + host + ")";
        }
        if (!changes) {
            return null;
        }
        if (exchange.getRequestHeaders().getFirst(HEADER) == null) {
            return "a request that changes something needs the " + HEADER + " header the page sends";
        }
        String origin = exchange.getRequestHeaders().getFirst("Origin");
        if (origin != null && !origin.equals("null")) {
            URI o;
            try {
                o = URI.create(origin);
            } catch (IllegalArgumentException e) {
                return "the Origin is not a URL";
            }
            if (o.getRawAuthority() == null || !o.getRawAuthority().equalsIgnoreCase(host)) {
                return "a request from another origin (" + origin + ") is refused";
            }
        }
        return null;
    }
}
