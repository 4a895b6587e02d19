package legate.a2a.server.observe;

import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /metrics}: a Prometheus text exposition behind its {@link MetricsAccess}. The A2A
 * server serves its {@link ServerMetrics} with it, {@code legate mcp} its tool calls.
 */
public final class MetricsEndpoint extends Handler.Abstract {
    public static final String PATH = "/metrics";
    /** The Prometheus text exposition format, version 0.0.4. */
    private static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final Supplier<String> scrape;
    private final MetricsAccess access;

    /** @param scrape the exposition, made at each request ({@link ServerMetrics#scrape()}) */
    public MetricsEndpoint(Supplier<String> scrape, MetricsAccess access) {
        super(InvocationType.BLOCKING);
        this.scrape = scrape;
        this.access = access;
    }

    public MetricsAccess access() {
        return access;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD");
            return text(response, callback, 405, "/metrics is read with GET\n");
        }
        switch (access) {
            case MetricsAccess.Open open -> {
            }
            case MetricsAccess.Token token -> {
                if (!token.matches(request.getHeaders().get(HttpHeader.AUTHORIZATION))) {
                    response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer realm=\"metrics\"");
                    return text(response, callback, 401, "/metrics needs the bearer token METRICS_TOKEN\n");
                }
            }
            case MetricsAccess.Refused refused -> {
                return text(response, callback, 403, refused.why() + "\n");
            }
            case MetricsAccess.Authenticated auth -> {
                if (!auth.allows().test(request)) {
                    return text(response, callback, 401, "/metrics needs the credentials the A2A endpoint accepts\n");
                }
            }
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, CONTENT_TYPE);
        Content.Sink.write(response, true, scrape.get(), callback);
        return true;
    }

    private static boolean text(Response response, Callback callback, int status, String body) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        Content.Sink.write(response, true, body, callback);
        return true;
    }
}
