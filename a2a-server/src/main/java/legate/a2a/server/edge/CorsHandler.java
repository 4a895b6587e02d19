package legate.a2a.server.edge;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Answers browsers' cross-origin requests by a {@link CorsPolicy}, in front of everything the
 * server serves (the card, the JWKS, every binding, {@code /metrics}).
 *
 * <p>A request without {@code Origin} (every non-browser client) passes untouched, and so does one
 * from the server's own origin (the request's scheme and Host, or the origin of a URL its card
 * gives). An allowed origin's preflight is answered here with 204 and what it may send; its
 * requests pass with the origin echoed and the response headers a client reads exposed. Any other
 * origin gets 403 and nothing else, preflight or not, with or without CORS_ORIGINS, so a page
 * elsewhere cannot even start a task with a request a browser sends without asking (a form post).
 *
 * <p>DEFECT (issue 30): without CORS_ORIGINS there was no check at all, and any web page could post
 * to a local agent; the browser only hid the answer from it.
 */
public final class CorsHandler extends Handler.Wrapper {
    private static final String METHODS = "GET, HEAD, POST, OPTIONS";
    // What a browser client reads besides the safelisted headers: the activated extensions
    // (A2A §3.2), the challenge of a 401 (A2A §7), the card's validators (A2A §8.6).
    private static final String EXPOSED = "A2A-Version, A2A-Extensions, WWW-Authenticate, ETag, Last-Modified";
    private static final String MAX_AGE = "600";

    private final CorsPolicy policy;
    private final Set<String> ownOrigins;

    /**
     * @param policy the origins CORS_ORIGINS allows, or null: none
     * @param ownOrigins the server's own origins besides the request's own ({@code scheme://host[:port]},
     *     lower case): those of the URLs its card gives, which a TLS-terminating proxy serves
     */
    public CorsHandler(CorsPolicy policy, Set<String> ownOrigins, Handler next) {
        super(next);
        this.policy = policy;
        this.ownOrigins = Set.copyOf(ownOrigins);
    }

    /** The origin ({@code scheme://host[:port]}, lower case, default port left out) of an absolute http(s) URL, or null. */
    public static String originOf(String url) {
        try {
            URI u = new URI(url);
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || u.getHost() == null) {
                return null;
            }
            boolean defaultPort = u.getPort() < 0 || u.getPort() == (scheme.equals("https") ? 443 : 80);
            return scheme + "://" + u.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + u.getPort());
        } catch (URISyntaxException e) {
            return null;
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String origin = request.getHeaders().get(HttpHeader.ORIGIN);
        if (origin == null) {
            return super.handle(request, response, callback);
        }
        if (isOwn(request, origin)) {
            // Same origin: the browser enforces nothing here and needs no CORS header.
            return super.handle(request, response, callback);
        }
        response.getHeaders().add(HttpHeader.VARY, "Origin");
        if (policy == null || !policy.allows(origin)) {
            String shown = origin.replaceAll("[\\p{Cntrl}\"]", "?");
            Response.writeError(request, response, callback, 403, "a browser page of origin \"" + shown
                    + "\" may not call this server; if it should, add that origin to CORS_ORIGINS (comma-separated)");
            return true;
        }
        response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        boolean preflight = HttpMethod.OPTIONS.is(request.getMethod())
                && request.getHeaders().contains(HttpHeader.ACCESS_CONTROL_REQUEST_METHOD);
        if (preflight) {
            response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_METHODS, METHODS);
            response.getHeaders().put(HttpHeader.ACCESS_CONTROL_ALLOW_HEADERS, policy.allowedHeaders());
            response.getHeaders().put(HttpHeader.ACCESS_CONTROL_MAX_AGE, MAX_AGE);
            response.setStatus(204);
            callback.succeeded();
            return true;
        }
        response.getHeaders().put(HttpHeader.ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED);
        return super.handle(request, response, callback);
    }

    private boolean isOwn(Request request, String origin) {
        String o = origin.toLowerCase(Locale.ROOT);
        if (ownOrigins.contains(o)) {
            return true;
        }
        String host = request.getHeaders().get(HttpHeader.HOST);
        if (host == null) {
            host = request.getHttpURI().getAuthority();
        }
        String scheme = request.isSecure() ? "https://" : "http://";
        // PROTOCOL (RFC 6454 §6.1): an origin is scheme "://" host [":" port], as the Host header writes the last two.
        return host != null && o.length() == scheme.length() + host.length() && o.startsWith(scheme)
                && o.regionMatches(true, scheme.length(), host, 0, host.length());
    }
}
