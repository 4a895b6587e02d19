package legate.mcp.guard;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import legate.wire.http.KnownHosts;

/**
 * The DNS-rebinding defence in front of the MCP endpoint: a request whose Host (or Origin) names a
 * host this endpoint does not answer to is refused with 403 before anything else is looked at.
 *
 * <p>PROTOCOL (MCP 2025-06-18, Streamable HTTP, security warning): a server must validate Origin,
 * and a local one should bind loopback only, because a web page can point a name it controls at
 * 127.0.0.1 and have the victim's browser call the server. The browser then sends the attacker's
 * name as Host; so on a loopback bind only 127.0.0.1, localhost and [::1] are accepted (with any
 * port). A wider bind accepts those and what MCP_ALLOWED_HOSTS lists.
 */
public final class HostGuard extends HttpFilter {
    private final boolean loopbackOnly;
    private final KnownHosts hosts;

    /**
     * @param bindHost the address the endpoint binds
     * @param allowedHosts MCP_ALLOWED_HOSTS: a name (any port) or name:port (that port only); no
     *     {@code *}: the endpoint runs beside the agent that calls it and never needs every Host
     */
    public HostGuard(String bindHost, List<String> allowedHosts) {
        this.loopbackOnly = isLoopback(bindHost);
        this.hosts = KnownHosts.of(loopbackOnly ? List.of()
                : allowedHosts.stream().filter(h -> !h.strip().equals("*")).toList());
    }

    /** Whether a bind on this address reaches only this machine. */
    public static boolean isLoopback(String bindHost) {
        return KnownHosts.isLoopback(bindHost);
    }

    /** Whether a Host header value (name or name:port) is one this endpoint answers to. */
    boolean allowsHost(String hostHeader) {
        // PROTOCOL (RFC 9112 §3.2): HTTP/1.1 requires Host; without one nothing can be checked, so it is refused.
        return hosts.allows(hostHeader);
    }

    /** Whether an Origin header, when there is one, names an allowed host; browsers send it, tools do not. */
    boolean allowsOrigin(String origin) {
        if (origin == null || origin.isBlank()) {
            return true;
        }
        try {
            URI uri = new URI(origin.strip());
            if (uri.getHost() == null) {
                return false;
            }
            return allowsHost(uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort());
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /**
     * Why a request with these {@code Host} and {@code Origin} headers is refused (403), or null when
     * it may pass: the one rule for every path of the port, {@code /metrics} included, which is served
     * outside the servlet context this filter guards.
     */
    public String refusal(String host, String origin) {
        if (!allowsHost(host)) {
            return "Host " + quote(host) + " is not allowed here"
                    + (loopbackOnly ? " (a loopback endpoint answers only to 127.0.0.1, localhost and [::1])"
                    : " (MCP_ALLOWED_HOSTS lists the names it answers to)");
        }
        if (!allowsOrigin(origin)) {
            return "Origin " + quote(origin) + " is not allowed here";
        }
        return null;
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String refused = refusal(request.getHeader("Host"), request.getHeader("Origin"));
        if (refused != null) {
            new Refusal(HttpServletResponse.SC_FORBIDDEN, refused).writeTo(response);
            return;
        }
        chain.doFilter(request, response);
    }

    private static String quote(String s) {
        return s == null ? "(none)" : "\"" + s.replaceAll("\\p{Cntrl}", "?") + "\"";
    }
}
