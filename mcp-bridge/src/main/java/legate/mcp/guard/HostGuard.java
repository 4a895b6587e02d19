package legate.mcp.guard;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

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
    private static final Set<String> LOOPBACK_NAMES = Set.of("127.0.0.1", "localhost", "[::1]");

    private final boolean loopbackOnly;
    private final List<String> allowed;

    /**
     * @param bindHost the address the endpoint binds
     * @param allowedHosts MCP_ALLOWED_HOSTS: a name (any port) or name:port (that port only)
     */
    public HostGuard(String bindHost, List<String> allowedHosts) {
        this.loopbackOnly = isLoopback(bindHost);
        this.allowed = allowedHosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).toList();
    }

    /** Whether a bind on this address reaches only this machine. */
    public static boolean isLoopback(String bindHost) {
        String h = bindHost.startsWith("[") && bindHost.endsWith("]") ? bindHost.substring(1, bindHost.length() - 1) : bindHost;
        if (h.equalsIgnoreCase("localhost")) {
            return true;
        }
        try {
            // Literal addresses only: a name is not resolved here, so a bind on a name counts as wide.
            return h.matches("[0-9.]+|[0-9a-fA-F:]+") && InetAddress.getByName(h).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** Whether a Host header value (name or name:port) is one this endpoint answers to. */
    boolean allowsHost(String hostHeader) {
        if (hostHeader == null || hostHeader.isBlank()) {
            // PROTOCOL (RFC 9112 §3.2): HTTP/1.1 requires Host; without one nothing can be checked.
            return false;
        }
        String host = hostHeader.strip().toLowerCase(Locale.ROOT);
        String name = withoutPort(host);
        if (LOOPBACK_NAMES.contains(name)) {
            // A rebinding page cannot make the browser send a loopback name, so these are safe on any bind.
            return true;
        }
        return !loopbackOnly && allowed.stream().anyMatch(a -> a.equals(host) || a.equals(name));
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

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String host = request.getHeader("Host");
        if (!allowsHost(host)) {
            new Refusal(HttpServletResponse.SC_FORBIDDEN, "Host " + quote(host) + " is not allowed here"
                    + (loopbackOnly ? " (a loopback endpoint answers only to 127.0.0.1, localhost and [::1])"
                    : " (MCP_ALLOWED_HOSTS lists the names it answers to)")).writeTo(response);
            return;
        }
        String origin = request.getHeader("Origin");
        if (!allowsOrigin(origin)) {
            new Refusal(HttpServletResponse.SC_FORBIDDEN, "Origin " + quote(origin) + " is not allowed here").writeTo(response);
            return;
        }
        chain.doFilter(request, response);
    }

    private static String withoutPort(String host) {
        if (host.startsWith("[")) {
            int close = host.indexOf(']');
            return close < 0 ? host : host.substring(0, close + 1);
        }
        int colon = host.indexOf(':');
        return colon < 0 ? host : host.substring(0, colon);
    }

    private static String quote(String s) {
        return s == null ? "(none)" : "\"" + s.replaceAll("\\p{Cntrl}", "?") + "\"";
    }
}
