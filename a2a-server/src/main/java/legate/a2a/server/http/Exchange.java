package legate.a2a.server.http;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Locale;
import java.util.function.IntFunction;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.model.A2aHeaders;
import legate.a2a.server.Principal;
import legate.a2a.server.auth.Unauthenticated;
import legate.a2a.server.auth.Presented;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.task.ServerStopping;
import legate.a2a.server.task.Subscription;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request at a {@link BindingEdge}, from its arrival to its answer: the steps every binding
 * takes in the order it chooses (credential, Content-Type, body, A2A-Version), and the ways it is
 * answered (a body, a stream, a refusal, a forward). It is counted and its span ended exactly
 * once, before the answer leaves, so a scrape that follows the answer sees it.
 */
public final class Exchange {
    private static final Logger LOG = LoggerFactory.getLogger(Exchange.class);

    private final BindingEdge edge;
    private final Request request;
    private final Response response;
    private final Callback callback;
    private final long start;
    private final Span span;
    private String method = "none";
    private boolean counted;
    private byte[] body;

    Exchange(BindingEdge edge, Request request, Response response, Callback callback, long start, Span span) {
        this.edge = edge;
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.start = start;
        this.span = span;
    }

    public Request request() {
        return request;
    }

    public Response response() {
        return response;
    }

    /** The A2A method this request turned out to be, for its count and its span ("unknown": none Legate serves). */
    public void method(String name) {
        this.method = name;
    }

    /**
     * Counts the request and ends its span, once.
     *
     * @param code {@link ServerMetrics#OK}, {@link ServerMetrics#FORWARDED} or the A2A error code it was answered with
     */
    public void done(int code) {
        if (counted) {
            return;
        }
        counted = true;
        edge.metrics().request(edge.binding(), method, code, System.nanoTime() - start);
        if (span != null) {
            span.updateName(method);
            span.setAttribute("rpc.method", method);
            if (code == ServerMetrics.FORWARDED) {
                // Answered by the instance that runs the conversation; its own span (child of this one) says how.
                span.setAttribute("a2a.forwarded", true);
            } else if (code != ServerMetrics.OK) {
                span.setAttribute(edge.errorCodeAttribute(), code);
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
        }
    }

    /**
     * PROTOCOL (A2A §7, §3.3.2): every operation but the public card needs a credential; a caller
     * without one is answered 401 ({@link #refuseUnauthenticated}) before its body is read, so it
     * learns nothing.
     */
    public Principal authenticate() throws Unauthenticated {
        return edge.authentication().authenticate(Presented.of(request));
    }

    /** 401 with one challenge per scheme; the body still arriving is read before the close (LingeringClose). */
    public void refuseUnauthenticated(Unauthenticated e, String contentType, String errorBody) {
        done(e.error().code());
        LOG.info("refused a request from {}: {}", Request.getRemoteAddr(request), e.why());
        for (String challenge : e.challenges()) {
            response.getHeaders().add(HttpHeader.WWW_AUTHENTICATE, challenge);
        }
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        write(LingeringClose.after(request, callback, edge.scheduler()), e.error().httpStatus(), contentType, errorBody);
    }

    /** The request's media type without parameters, lower-case; "" when it has none. */
    public String mediaType() {
        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        return type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    }

    /**
     * PROTOCOL (A2A §9.1, §11.2): the JSON bindings travel as application/json; application/a2a+json
     * (which A2A 1.0.1 prefers for HTTP+JSON) is accepted too.
     */
    public void requireJson() {
        String mime = mediaType();
        if (!mime.equals("application/json") && !mime.equals("application/a2a+json")) {
            String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
            throw A2aError.CONTENT_TYPE_NOT_SUPPORTED.exception("Content-Type must be application/json, got "
                    + (type == null ? "none" : type));
        }
    }

    /** The whole body, refused with 413 past the limit before more of it is read. */
    public byte[] readBody() {
        long declared = request.getLength();
        if (declared > edge.maxBodyBytes()) {
            throw new BodyTooLarge(edge.maxBodyBytes());
        }
        try (InputStream in = Content.Source.asInputStream(request)) {
            if (declared >= 0) {
                // The common case, a Content-Length: one array of that size, no copy (Jetty ends
                // the content there). A body that ends early fails to parse like any cut JSON.
                body = in.readNBytes((int) declared);
                return body;
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
            byte[] buf = new byte[4096];
            int n;
            while ((n = in.read(buf)) > 0) {
                if (out.size() + n > edge.maxBodyBytes()) {
                    throw new BodyTooLarge(edge.maxBodyBytes());
                }
                out.write(buf, 0, n);
            }
            body = out.toByteArray();
            return body;
        } catch (IOException e) {
            throw A2aError.PARSE_ERROR.exception("Parse error: the request body could not be read");
        }
    }

    /**
     * PROTOCOL (A2A §3.6): A2A-Version is Major.Minor; absent or empty means 0.3, which Legate does
     * not speak on this binding. The query parameter of the same name is read when the header is
     * missing (§3.6.1). A patch number is tolerated by comparing Major.Minor only.
     */
    public void checkVersion() {
        String version = request.getHeaders().get(A2aHeaders.VERSION);
        if (version == null || version.isBlank()) {
            Fields query = Request.extractQueryParameters(request);
            version = query.getValue(A2aHeaders.VERSION);
        }
        String v = version == null ? "" : version.trim();
        String majorMinor = v.chars().filter(c -> c == '.').count() >= 2 ? v.substring(0, v.lastIndexOf('.')) : v;
        if (!A2aHeaders.PROTOCOL_VERSION.equals(majorMinor)) {
            throw A2aError.VERSION_NOT_SUPPORTED.exception(v.isEmpty()
                    ? "A2A-Version header is missing, which means 0.3; this agent speaks A2A 1.0: send \"A2A-Version: 1.0\""
                    : "A2A version " + v + " is not supported; this agent speaks A2A 1.0");
        }
    }

    /** A successful answer, counted first. */
    public void reply(int status, String contentType, String json) {
        done(ServerMetrics.OK);
        write(callback, status, contentType, json);
    }

    /** A stream answer, counted first; the request's thread returns, the events are written by whoever publishes them. */
    public void stream(Subscription subscription, SseFraming framing) {
        done(ServerMetrics.OK);
        new SseResponse(framing, response, callback, subscription, edge.keepAlive()).start();
    }

    /**
     * Refuses the request with {@code status} and the binding's error body for the status it is answered with. A body over the limit
     * is 413; a draining server's refusal is 503 with Retry-After (a load balancer sends the request
     * elsewhere, a client retries); a body still arriving is read before the connection closes.
     */
    public void refuse(A2aException e, int status, String contentType, IntFunction<String> errorBody) {
        done(e.error().code());
        LOG.info("refused a request from {}: {} {}", Request.getRemoteAddr(request), e.error().code(), e.getMessage());
        if (e instanceof BodyTooLarge) {
            status = 413;
        }
        if (e instanceof ServerStopping) {
            status = 503;
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
            response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
        }
        Callback then = callback;
        if (body == null && request.getLength() != 0) {
            // The body is still arriving: this connection ends after the answer, once the rest is read.
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
            then = LingeringClose.after(request, callback, edge.scheduler());
        }
        write(then, status, contentType, errorBody.apply(status));
    }

    /**
     * The request belongs to a conversation another instance runs: it answers, through this one
     * ({@link PeerForwarding}), the request sent to {@code target} as it came.
     *
     * @throws A2aException -32603 when the request was itself forwarded here (the conversation moved
     *     meanwhile) or the other instance cannot be reached; nothing was written then
     */
    public void forward(URI target) {
        done(ServerMetrics.FORWARDED);
        if (request.getHeaders().contains(PeerForwarding.FORWARDED)) {
            throw A2aError.INTERNAL.exception("this request was forwarded here by another instance of the agent,"
                    + " but its conversation runs on " + target + " (it moved meanwhile); send it again");
        }
        edge.forward(request, body, target, response, callback);
    }

    private void write(Callback then, int status, String contentType, String json) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        Content.Sink.write(response, true, json, then);
    }

    /** A body over the configured limit: -32600 with HTTP 413, read no further. */
    private static final class BodyTooLarge extends A2aException {
        BodyTooLarge(int limit) {
            super(A2aError.INVALID_REQUEST, "Request body is larger than the limit of " + limit + " bytes");
        }
    }
}
