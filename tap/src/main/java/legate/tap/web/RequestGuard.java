package legate.tap.web;

import com.sun.net.httpserver.HttpExchange;
import java.net.URI;
import legate.wire.http.KnownHosts;

/**
 * Who the inspector answers. The page shows an agent's traffic and can send it messages, so another
 * web site open in the same browser must not read it or post to it:
 *
 * <ul>
 *   <li>A request must name a host the inspector is known by: a loopback name ({@code 127.0.0.1},
 *       {@code localhost}, {@code [::1]}, any port), its bind address, this machine's interface addresses
 *       on a wildcard bind, or a name in TAP_ALLOWED_HOSTS ({@link KnownHosts#forBind}): a DNS-rebinding
 *       page that reaches the port under its own name is refused, on every bind.</li>
 *   <li>A request that changes something (the composer, an import) must carry the header
 *       {@value #HEADER}: a page of another origin can send that only after a CORS preflight, which the
 *       inspector never approves; and its {@code Origin}, when sent, must be the inspector's own.</li>
 * </ul>
 */
final class RequestGuard {
    /** The header the page's own script sends with every request that changes something. */
    static final String HEADER = "X-Legate-Inspector";

    private final KnownHosts hosts;

    /** @param hosts the names the inspector answers ({@code *} in TAP_ALLOWED_HOSTS: every one) */
    RequestGuard(KnownHosts hosts) {
        this.hosts = hosts;
    }

    /** Why the request is refused, or null when it may be served. */
    String refusal(HttpExchange exchange, boolean changes) {
        String host = exchange.getRequestHeaders().getFirst("Host");
        // DEFECT (issue 30): an inspector bound wider than loopback once skipped this check, so a
        // rebinding page under its own name read /rows and sent messages through /send.
        if (!hosts.allows(host)) {
            return "the inspector answers only its bind address, loopback names and TAP_ALLOWED_HOSTS (Host: "
                    + host + ")";
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
