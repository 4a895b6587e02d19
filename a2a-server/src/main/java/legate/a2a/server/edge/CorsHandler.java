package legate.a2a.server.edge;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Answers browsers' cross-origin requests by a {@link CorsPolicy}, in front of everything the
 * server serves (the card, the JWKS, JSON-RPC).
 *
 * <p>A request without {@code Origin} (every non-browser client) passes untouched. An allowed
 * origin's preflight is answered here with 204 and what it may send; its requests pass with the
 * origin echoed and the response headers a client reads exposed. A foreign origin gets 403 and
 * nothing else, preflight or not, so a page elsewhere cannot even start a task with a request a
 * browser sends without asking (a form post).
 */
public final class CorsHandler extends Handler.Wrapper {
    private static final String METHODS = "GET, HEAD, POST, OPTIONS";
    // What a browser client reads besides the safelisted headers: the activated extensions
    // (A2A §3.2), the challenge of a 401 (A2A §7), the card's validators (A2A §8.6).
    private static final String EXPOSED = "A2A-Version, A2A-Extensions, WWW-Authenticate, ETag, Last-Modified";
    private static final String MAX_AGE = "600";

    private final CorsPolicy policy;

    public CorsHandler(CorsPolicy policy, Handler next) {
        super(next);
        this.policy = policy;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String origin = request.getHeaders().get(HttpHeader.ORIGIN);
        if (origin == null) {
            return super.handle(request, response, callback);
        }
        response.getHeaders().add(HttpHeader.VARY, "Origin");
        if (!policy.allows(origin)) {
            Response.writeError(request, response, callback, 403, "origin " + origin + " is not allowed");
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
}
