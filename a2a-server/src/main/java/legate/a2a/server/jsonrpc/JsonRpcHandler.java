package legate.a2a.server.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Duration;
import java.util.Map;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.server.Principal;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.Unauthenticated;
import legate.a2a.server.http.BindingEdge;
import legate.a2a.server.http.Exchange;
import legate.a2a.server.http.PeerForwarding;
import legate.a2a.server.jsonrpc.MethodResult.Stream;
import legate.a2a.server.jsonrpc.MethodResult.Unary;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.task.RequestHandler;
import legate.a2a.server.task.RunsElsewhere;
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
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The A2A JSON-RPC 2.0 binding over HTTP (A2A §9). One request is handled in one blocking pass on
 * its own virtual thread, in this order: credential, content type, body size, JSON, A2A-Version,
 * envelope, method, params, dispatch; each step that fails answers with its own code and stops. A
 * request the handler finds belongs to a conversation another instance runs ({@link RunsElsewhere})
 * is forwarded there as it came ({@link PeerForwarding}), credentials included: that instance
 * authenticates the caller again. The steps every HTTP binding shares are its {@link BindingEdge}'s.
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
    private static final String JSON = "application/json";
    private final Map<String, JsonRpcMethod> methods;
    private final BindingEdge edge;
    private final JsonRpcDialect dialect;

    /**
     * @param scheduler runs the keep-alive sweep of open streams (the server's own scheduler)
     * @param keepAlive how long a stream may stay silent before it gets an SSE comment
     */
    public JsonRpcHandler(RequestHandler handler, CallerAuthentication authentication, int maxBodyBytes,
                          Scheduler scheduler, Duration keepAlive) {
        this(handler, authentication, maxBodyBytes, scheduler, keepAlive, new ServerMetrics(), Tracing.OFF,
                new PeerForwarding());
    }

    /** The same, with no authentication (every caller anonymous). */
    public JsonRpcHandler(RequestHandler handler, int maxBodyBytes, Scheduler scheduler, Duration keepAlive) {
        this(handler, CallerAuthentication.NONE, maxBodyBytes, scheduler, keepAlive, new ServerMetrics(), Tracing.OFF,
                new PeerForwarding());
    }

    /** The same, counting each request into {@code metrics} and, when tracing is on, tracing it. */
    public JsonRpcHandler(RequestHandler handler, int maxBodyBytes, Scheduler scheduler, Duration keepAlive,
                          ServerMetrics metrics, Tracing tracing) {
        this(handler, CallerAuthentication.NONE, maxBodyBytes, scheduler, keepAlive, metrics, tracing, new PeerForwarding());
    }

    /** The same, authenticating callers with {@code authentication}, counting and tracing each request. */
    public JsonRpcHandler(RequestHandler handler, CallerAuthentication authentication, int maxBodyBytes,
                          Scheduler scheduler, Duration keepAlive, ServerMetrics metrics, Tracing tracing,
                          PeerForwarding forwarding) {
        this(JsonRpcDialect.V1_0, handler, authentication, maxBodyBytes, scheduler, keepAlive, metrics, tracing,
                forwarding);
    }

    /** The same, speaking {@code dialect} (A2A 1.0, or 0.3 translated at this edge) behind the same edge. */
    public JsonRpcHandler(JsonRpcDialect dialect, RequestHandler handler, CallerAuthentication authentication,
                          int maxBodyBytes, Scheduler scheduler, Duration keepAlive, ServerMetrics metrics,
                          Tracing tracing, PeerForwarding forwarding) {
        super(InvocationType.BLOCKING);
        this.dialect = dialect;
        this.methods = dialect.methods(handler);
        this.edge = new BindingEdge(dialect.binding(), "jsonrpc", "rpc.jsonrpc.error_code", authentication, maxBodyBytes,
                scheduler, keepAlive, metrics, tracing, forwarding);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        edge.serve(request, response, callback, this::answer);
        return true;
    }

    private void answer(Exchange x) {
        Request request = x.request();
        if (!HttpMethod.POST.is(request.getMethod())) {
            x.response().getHeaders().put(HttpHeader.ALLOW, "POST");
            A2aException notPost = A2aError.INVALID_REQUEST.exception("A2A JSON-RPC requests are POSTed to this URL;"
                    + " the agent card is at /.well-known/agent-card.json");
            x.refuse(notPost, 405, JSON, status -> dialect.errorJson(null, notPost.error(), notPost.getMessage()));
            return;
        }
        JsonNode id = JsonNodeFactory.instance.nullNode();
        Principal caller;
        try {
            caller = x.authenticate();
        } catch (Unauthenticated e) {
            x.refuseUnauthenticated(e, JSON, dialect.errorJson(id, e.error(), e.getMessage()));
            return;
        }
        try {
            // PEER (@a2a-js/sdk 1.2.0): refuses application/a2a+json on JSON-RPC with -32005; Legate accepts it.
            x.requireJson();
            JsonNode tree = JsonRpcCodec.parseTree(x.readBody());
            id = JsonRpcCodec.idOf(tree);
            dialect.checkVersion(x);
            JsonRpcMessage.Request rpc = JsonRpcCodec.toRequest(tree);
            if (rpc.isNotification()) {
                throw new JsonRpcException(JsonRpcError.INVALID_REQUEST, "Invalid Request: \"id\" is required; every A2A method has a response");
            }
            JsonRpcMethod method = methods.get(rpc.method());
            x.method(method == null ? "unknown" : rpc.method());
            if (method == null) {
                throw A2aError.METHOD_NOT_FOUND.exception("Method not found: " + rpc.method());
            }
            JsonNode params = rpc.params();
            if ((params == null && !dialect.paramsOptional(rpc.method())) || (params != null && !params.isObject())) {
                throw A2aError.INVALID_PARAMS.exception("params must be a JSON object");
            }
            MethodResult result = method.call(params, request.getHeaders(), caller);
            switch (result) {
                case Unary u -> x.reply(200, JSON, JsonRpcCodec.resultJson(id, u.json()));
                case Stream s -> x.stream(s.subscription(), new JsonRpcFrames(id, dialect));
            }
        } catch (RunsElsewhere e) {
            try {
                x.forward(dialect.peerUrl(e.instanceUrl()));
            } catch (A2aException unreachable) {
                refuse(x, id, unreachable);
            }
        } catch (JsonRpcException e) {
            A2aError error = A2aError.byCode(e.code());
            refuse(x, id, new A2aException(error == null ? A2aError.INVALID_REQUEST : error, e.getMessage()));
        } catch (A2aException e) {
            refuse(x, id, e);
        } catch (RuntimeException e) {
            LOG.error("internal error answering {}", request.getHttpURI().getPath(), e);
            refuse(x, id, A2aError.INTERNAL.exception("Internal error"));
        }
    }

    private void refuse(Exchange x, JsonNode id, A2aException e) {
        x.refuse(e, e.error().httpStatus(), JSON, status -> dialect.errorJson(id, e.error(), e.getMessage()));
    }

    static void reply(Response response, Callback callback, int status, String json) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, JSON);
        Content.Sink.write(response, true, json, callback);
    }

    /** The JSON-RPC error body of {@code e} (with a null id), for answers given outside this handler. */
    public static String errorBody(A2aException e) {
        return ErrorBody.of(null, e);
    }

    /** Ends every open stream cleanly, each after the frames already published: the server is stopping. */
    public void endStreams() {
        edge.endStreams();
    }

    /** The streams this handler is writing now, from their first event until their last write. */
    public int openStreams() {
        return edge.openStreams();
    }
}
