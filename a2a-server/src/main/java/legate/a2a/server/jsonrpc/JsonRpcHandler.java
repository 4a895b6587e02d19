package legate.a2a.server.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.model.A2aHeaders;
import legate.a2a.server.Principal;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.Unauthenticated;
import legate.a2a.server.jsonrpc.MethodResult.Stream;
import legate.a2a.server.jsonrpc.MethodResult.Unary;
import legate.a2a.server.observe.HttpFieldsGetter;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.task.RequestHandler;
import legate.a2a.server.task.RunsElsewhere;
import legate.a2a.server.task.ServerStopping;
import legate.wire.jsonrpc.JsonRpcCodec;
import legate.wire.jsonrpc.JsonRpcError;
import legate.wire.jsonrpc.JsonRpcException;
import legate.wire.jsonrpc.JsonRpcMessage;
import legate.wire.trace.Tracing;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The A2A JSON-RPC 2.0 binding over HTTP (A2A §9). One request is handled in one blocking pass on
 * its own virtual thread, in this order: credential, content type, body size, JSON, A2A-Version,
 * envelope, method, params, dispatch; each step that fails answers with its own code and stops. A
 * request the handler finds belongs to a conversation another instance runs ({@link RunsElsewhere})
 * is forwarded there as it came ({@link PeerForwarding}), credentials included: that instance
 * authenticates the caller again.
 *
 * <p>What the methods are called, which A2A-Version is accepted and how results, events and errors
 * look is the {@link JsonRpcDialect}'s: A2A 1.0 by default, v0.3 at its own URL.
 *
 * <p>The JSON is parsed before the version is checked so that even a version error echoes the
 * request's id, as the JS SDK's answer does.
 */
public final class JsonRpcHandler extends Handler.Abstract {
    /** The binding label of this handler's requests in {@link ServerMetrics}. */
    public static final String BINDING = "jsonrpc";
    private static final Logger LOG = LoggerFactory.getLogger(JsonRpcHandler.class);
    private final Map<String, JsonRpcMethod> methods;
    private final CallerAuthentication authentication;
    private final int maxBodyBytes;
    private final KeepAlive keepAlive;
    private final Scheduler scheduler;
    private final ServerMetrics metrics;
    private final Tracing tracing;
    private final JsonRpcDialect dialect;
    // Made on the first forwarded request: an instance alone on its store never needs its HTTP client.
    private volatile PeerForwarding forwarding;

    /**
     * @param scheduler runs the keep-alive sweep of open streams (the server's own scheduler)
     * @param keepAlive how long a stream may stay silent before it gets an SSE comment
     */
    public JsonRpcHandler(RequestHandler handler, CallerAuthentication authentication, int maxBodyBytes,
                          Scheduler scheduler, Duration keepAlive) {
        this(handler, authentication, maxBodyBytes, scheduler, keepAlive, new ServerMetrics(), Tracing.OFF);
    }

    /** The same, with no authentication (every caller anonymous). */
    public JsonRpcHandler(RequestHandler handler, int maxBodyBytes, Scheduler scheduler, Duration keepAlive) {
        this(handler, CallerAuthentication.NONE, maxBodyBytes, scheduler, keepAlive, new ServerMetrics(), Tracing.OFF);
    }

    /** The same, counting each request into {@code metrics} and, when tracing is on, tracing it. */
    public JsonRpcHandler(RequestHandler handler, int maxBodyBytes, Scheduler scheduler, Duration keepAlive,
                          ServerMetrics metrics, Tracing tracing) {
        this(handler, CallerAuthentication.NONE, maxBodyBytes, scheduler, keepAlive, metrics, tracing);
    }

    /** The same, authenticating callers with {@code authentication}, counting and tracing each request. */
    public JsonRpcHandler(RequestHandler handler, CallerAuthentication authentication, int maxBodyBytes,
                          Scheduler scheduler, Duration keepAlive, ServerMetrics metrics, Tracing tracing) {
        this(JsonRpcDialect.V1_0, handler, authentication, maxBodyBytes, scheduler, keepAlive, metrics, tracing);
    }

    /** The same, speaking {@code dialect} (A2A 1.0, or 0.3 translated at this edge) behind the same edge. */
    public JsonRpcHandler(JsonRpcDialect dialect, RequestHandler handler, CallerAuthentication authentication,
                          int maxBodyBytes, Scheduler scheduler, Duration keepAlive, ServerMetrics metrics,
                          Tracing tracing) {
        super(InvocationType.BLOCKING);
        this.dialect = dialect;
        this.metrics = metrics;
        this.tracing = tracing;
        this.methods = dialect.methods(handler);
        this.authentication = authentication;
        this.maxBodyBytes = maxBodyBytes;
        this.keepAlive = new KeepAlive(scheduler, keepAlive);
        this.scheduler = scheduler;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        long start = System.nanoTime();
        if (!tracing.on()) {
            // Tracing off: this one check, no span, no scope, no header read.
            answer(request, response, callback, start, null);
            return true;
        }
        Span span = serverSpan(request);
        try (Scope scope = span.makeCurrent()) {
            answer(request, response, callback, start, span);
        }
        return true;
    }

    /**
     * Counts the request and ends its span, once per request, before its answer is written.
     *
     * @param method the A2A method ("unknown" when Legate serves none of that name, "none" when unread)
     * @param code {@link ServerMetrics#OK}, {@link ServerMetrics#FORWARDED} or the error code it was answered with
     */
    private void done(String method, int code, long start, Span span) {
        metrics.request(dialect.binding(), method, code, System.nanoTime() - start);
        if (span != null) {
            span.updateName(method);
            span.setAttribute("rpc.method", method);
            if (code == ServerMetrics.FORWARDED) {
                // Answered by the instance that runs the conversation; its own span (child of this one) says how.
                span.setAttribute("a2a.forwarded", true);
            } else if (code != ServerMetrics.OK) {
                span.setAttribute("rpc.jsonrpc.error_code", code);
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
        }
    }

    private Span serverSpan(Request request) {
        Context parent = Tracing.propagator().extract(Context.root(), request.getHeaders(), HttpFieldsGetter.INSTANCE);
        return tracing.tracer().spanBuilder("a2a request").setParent(parent).setSpanKind(SpanKind.SERVER)
                .setAttribute("rpc.system", "jsonrpc").startSpan();
    }

    private void answer(Request request, Response response, Callback callback, long start, Span span) {
        if (!HttpMethod.POST.is(request.getMethod())) {
            done("none", A2aError.INVALID_REQUEST.code(), start, span);
            response.getHeaders().put(HttpHeader.ALLOW, "POST");
            reply(response, callback, 405, ErrorBody.of(null, A2aError.INVALID_REQUEST,
                    "A2A JSON-RPC requests are POSTed to this URL; the agent card is at /.well-known/agent-card.json"));
            return;
        }
        JsonNode id = JsonNodeFactory.instance.nullNode();
        byte[] body = null;
        String methodName = "none";
        boolean counted = false;
        Principal caller;
        try {
            // PROTOCOL (A2A §7, §3.3.2): every method but the public card needs a credential; a
            // caller without one is answered 401 before its body is read, so it learns nothing.
            caller = authentication.authenticate(request.getHeaders());
        } catch (Unauthenticated e) {
            done(methodName, e.error().code(), start, span);
            LOG.info("refused a request from {}: {}", Request.getRemoteAddr(request), e.why());
            for (String challenge : e.challenges()) {
                response.getHeaders().add(HttpHeader.WWW_AUTHENTICATE, challenge);
            }
            // Answered before the body was read: the rest is read before the close (LingeringClose).
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
            reply(response, LingeringClose.after(request, callback, scheduler), e.error().httpStatus(),
                    dialect.errorJson(id, e.error(), e.getMessage()));
            return;
        }
        try {
            checkContentType(request);
            body = readBody(request);
            JsonNode tree = JsonRpcCodec.parseTree(body);
            id = JsonRpcCodec.idOf(tree);
            dialect.checkVersion(request);
            JsonRpcMessage.Request rpc = JsonRpcCodec.toRequest(tree);
            if (rpc.isNotification()) {
                throw new JsonRpcException(JsonRpcError.INVALID_REQUEST, "Invalid Request: \"id\" is required; every A2A method has a response");
            }
            JsonRpcMethod method = methods.get(rpc.method());
            methodName = method == null ? "unknown" : rpc.method();
            if (method == null) {
                throw A2aError.METHOD_NOT_FOUND.exception("Method not found: " + rpc.method());
            }
            JsonNode params = rpc.params();
            if ((params == null && !dialect.paramsOptional(rpc.method())) || (params != null && !params.isObject())) {
                throw A2aError.INVALID_PARAMS.exception("params must be a JSON object");
            }
            MethodResult result = method.call(params, request.getHeaders(), caller);
            // Counted before the answer leaves: a scrape that follows the answer sees it.
            done(methodName, ServerMetrics.OK, start, span);
            counted = true;
            switch (result) {
                case Unary u -> reply(response, callback, 200, JsonRpcCodec.resultJson(id, u.json()));
                // The request's thread returns here; the events are written by whoever publishes them.
                case Stream s -> new SseResponse(id, response, callback, s.subscription(), keepAlive, dialect).start();
            }
        } catch (RunsElsewhere e) {
            if (!counted) {
                done(methodName, ServerMetrics.FORWARDED, start, span);
            }
            forward(request, body, e, response, callback, id);
        } catch (JsonRpcException e) {
            A2aError error = A2aError.byCode(e.code());
            A2aException refusal = new A2aException(error == null ? A2aError.INVALID_REQUEST : error, e.getMessage());
            if (!counted) {
                done(methodName, refusal.error().code(), start, span);
            }
            refuse(request, response, callback, id, refusal, body != null);
        } catch (A2aException e) {
            if (!counted) {
                done(methodName, e.error().code(), start, span);
            }
            refuse(request, response, callback, id, e, body != null);
        } catch (RuntimeException e) {
            LOG.error("internal error answering {}", request.getHttpURI().getPath(), e);
            if (!counted) {
                done(methodName, A2aError.INTERNAL.code(), start, span);
            }
            refuse(request, response, callback, id, A2aError.INTERNAL.exception("Internal error"), body != null);
        }
    }

    /** The request belongs to a conversation another instance runs: it answers, through this one. */
    private void forward(Request request, byte[] body, RunsElsewhere e, Response response, Callback callback, JsonNode id) {
        if (request.getHeaders().contains(PeerForwarding.FORWARDED)) {
            refuse(request, response, callback, id, A2aError.INTERNAL.exception("this request was forwarded here by"
                    + " another instance of the agent, but its conversation runs on " + e.instanceUrl()
                    + " (it moved meanwhile); send it again"), true);
            return;
        }
        PeerForwarding f = forwarding;
        if (f == null) {
            synchronized (this) {
                f = forwarding;
                if (f == null) {
                    f = new PeerForwarding();
                    forwarding = f;
                }
            }
        }
        try {
            f.forward(request, body, dialect.peerUrl(e.instanceUrl()), response, callback);
        } catch (A2aException unreachable) {
            refuse(request, response, callback, id, unreachable, true);
        }
    }

    private void refuse(Request request, Response response, Callback callback, JsonNode id, A2aException e,
                        boolean bodyRead) {
        LOG.info("refused a request from {}: {} {}", Request.getRemoteAddr(request), e.error().code(), e.getMessage());
        int status = e.error().httpStatus();
        if (e instanceof BodyTooLarge) {
            status = 413;
        }
        if (e instanceof ServerStopping) {
            // A load balancer sends it elsewhere; a client can retry.
            status = 503;
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
            response.getHeaders().put(HttpHeader.RETRY_AFTER, "1");
        }
        if (!bodyRead) {
            // The body is still arriving: this connection ends after the answer, once the rest is read.
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
            callback = LingeringClose.after(request, callback, scheduler);
        }
        reply(response, callback, status, dialect.errorJson(id, e.error(), e.getMessage()));
    }

    private static void checkContentType(Request request) {
        String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        String mime = type == null ? "" : type.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        // PROTOCOL (A2A §9.1): JSON-RPC travels as application/json; application/a2a+json (which
        // A2A 1.0.1 prefers for HTTP+JSON) is tolerated too. PEER (@a2a-js/sdk 1.2.0): refuses it
        // on JSON-RPC with -32005.
        if (!mime.equals("application/json") && !mime.equals("application/a2a+json")) {
            throw A2aError.CONTENT_TYPE_NOT_SUPPORTED.exception("Content-Type must be application/json, got "
                    + (type == null ? "none" : type));
        }
    }

    private byte[] readBody(Request request) throws JsonRpcException {
        long declared = request.getLength();
        if (declared > maxBodyBytes) {
            throw new BodyTooLarge(maxBodyBytes);
        }
        try (InputStream in = Content.Source.asInputStream(request)) {
            if (declared >= 0) {
                // The common case, a Content-Length: one array of that size, no copy (Jetty ends
                // the content there). A body that ends early fails to parse like any cut JSON.
                return in.readNBytes((int) declared);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
            byte[] buf = new byte[4096];
            int n;
            while ((n = in.read(buf)) > 0) {
                if (out.size() + n > maxBodyBytes) {
                    throw new BodyTooLarge(maxBodyBytes);
                }
                out.write(buf, 0, n);
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new JsonRpcException(JsonRpcError.PARSE_ERROR, "Parse error: the request body could not be read");
        }
    }

    /**
     * PROTOCOL (A2A §3.6): A2A-Version is Major.Minor; absent or empty means 0.3, which this URL does
     * not speak (v0.3 has its own, v03.V03Dialect). The query parameter of the same name is read when the header is missing (§3.6.1).
     * A patch number is tolerated by comparing Major.Minor only.
     */
    static void checkVersion(Request request) {
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

    static void reply(Response response, Callback callback, int status, String json) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        Content.Sink.write(response, true, json, callback);
    }

    /** A body over the configured limit: -32600 with HTTP 413, read no further. */
    private static final class BodyTooLarge extends A2aException {
        BodyTooLarge(int limit) {
            super(A2aError.INVALID_REQUEST, "Request body is larger than the limit of " + limit + " bytes");
        }
    }

    /** Ends every open stream cleanly, each after the frames already published: the server is stopping. */
    public void endStreams() {
        keepAlive.endAll();
    }

    /** The streams this handler is writing now, from their first event until their last write. */
    public int openStreams() {
        return keepAlive.openStreams();
    }
}
