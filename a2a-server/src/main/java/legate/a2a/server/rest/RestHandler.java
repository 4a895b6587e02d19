package legate.a2a.server.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.server.Principal;
import legate.a2a.server.ProtocolBinding;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.Unauthenticated;
import legate.a2a.server.http.BindingEdge;
import legate.a2a.server.http.Exchange;
import legate.a2a.server.http.PeerForwarding;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.task.RequestHandler;
import legate.a2a.server.task.RunsElsewhere;
import legate.wire.json.WireJson;
import legate.wire.trace.Tracing;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The A2A HTTP+JSON (REST) binding (A2A §11): the operations as resources under the interface
 * URL's path ({@code POST /message:send}, {@code GET /tasks/{id}}, …, README "The REST binding"),
 * bodies and results in ProtoJSON, errors as google.rpc.Status ({@link RestErrors}), streams as SSE
 * ({@link RestFrames}). One request is handled in one blocking pass on its own virtual thread, in
 * this order: path, HTTP method, credential, Content-Type, body size, A2A-Version, body, dispatch;
 * each step that fails answers with its own error and stops. Everything but the path and the
 * shapes is the {@link BindingEdge}'s, as on JSON-RPC.
 */
public final class RestHandler extends Handler.Abstract {
    /** The binding label of this handler's requests in {@link ServerMetrics}. */
    public static final String BINDING = "rest";
    /**
     * PROTOCOL (A2A 1.0.0 §11.1, §11.4): the media type of HTTP+JSON requests and responses is
     * application/json. A2A 1.0.1 prefers application/a2a+json, which @a2a-js/sdk 1.2.0 answers with;
     * requests in either are accepted ({@code Exchange.requireJson}), answers are the 1.0.0 one, which
     * the SDK's client reads as well (it parses any answer body as JSON).
     */
    static final String JSON = "application/json";
    private static final Logger LOG = LoggerFactory.getLogger(RestHandler.class);

    private final String prefix;
    private final Map<String, RestOperations.Operation> operations;
    private final BindingEdge edge;

    /**
     * @param rpcPath the path of the interface URL ({@code ServerConfig.rpcPath()}); the REST paths are under it
     * @param scheduler runs the keep-alive sweep of open streams (the server's own scheduler)
     * @param keepAlive how long a stream may stay silent before it gets an SSE comment
     */
    public RestHandler(RequestHandler handler, String rpcPath, CallerAuthentication authentication, int maxBodyBytes,
                       Scheduler scheduler, Duration keepAlive, ServerMetrics metrics, Tracing tracing,
                       PeerForwarding forwarding) {
        super(InvocationType.BLOCKING);
        this.prefix = rpcPath.endsWith("/") ? rpcPath.substring(0, rpcPath.length() - 1) : rpcPath;
        this.operations = RestOperations.table(handler);
        this.edge = new BindingEdge(BINDING, "http+json", "a2a.error_code", authentication, maxBodyBytes, scheduler,
                keepAlive, metrics, tracing, forwarding);
    }

    /**
     * Whether a request path is this binding's: under the interface URL's path, as
     * {@link ProtocolBinding#HTTP_JSON} advertises it (A2A §11.3: paths relative to that URL).
     */
    public boolean serves(String pathInContext) {
        return pathInContext.startsWith(prefix + "/");
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        edge.serve(request, response, callback, this::answer);
        return true;
    }

    private void answer(Exchange x) {
        Request request = x.request();
        String raw = request.getHttpURI().getPath();
        String path = raw.startsWith(prefix + "/") ? raw.substring(prefix.length()) : Request.getPathInContext(request)
                .substring(prefix.length());
        String operation;
        RestRoute route;
        try {
            route = RestRoute.parse(path);
            if (route == null) {
                x.method("unknown");
                throw A2aError.METHOD_NOT_FOUND.exception("no A2A HTTP+JSON resource at " + path + " (the paths are"
                        + " /message:send, /message:stream, /tasks, /tasks/{id}, /tasks/{id}:cancel, /tasks/{id}:subscribe,"
                        + " /tasks/{id}/pushNotificationConfigs and /extendedAgentCard)");
            }
            operation = route.resource().operation(request.getMethod());
        } catch (A2aException e) {
            refuse(x, e);
            return;
        }
        if (operation == null) {
            x.method("unknown");
            x.response().getHeaders().put(HttpHeader.ALLOW, route.resource().allow());
            A2aException e = A2aError.METHOD_NOT_FOUND.exception(path + " answers " + route.resource().allow() + ", not "
                    + request.getMethod());
            x.refuse(e, 405, JSON, status -> RestErrors.body(e, status));
            return;
        }
        x.method(operation);
        Principal caller;
        try {
            caller = x.authenticate();
        } catch (Unauthenticated e) {
            x.refuseUnauthenticated(e, JSON, RestErrors.body(e, e.error().httpStatus()));
            return;
        }
        try {
            JsonNode body = WireJson.mapper().createObjectNode();
            // PROTOCOL (A2A §11.3): GET and DELETE carry their fields in the path and query, never a body,
            // so neither needs a Content-Type (the TCK's DELETE sends none, and no Content-Length).
            if (!"GET".equals(request.getMethod()) && !"DELETE".equals(request.getMethod())) {
                body = readBody(x);
            }
            x.checkVersion();
            RestResult result = operations.get(operation).call(new RestCall(route, body,
                    Request.extractQueryParameters(request), request.getHeaders(), caller));
            switch (result) {
                case RestResult.Unary u -> x.reply(u.status(), JSON, u.json());
                case RestResult.Stream s -> x.stream(s.subscription(), RestFrames.INSTANCE);
            }
        } catch (RunsElsewhere e) {
            try {
                x.forward(peerUrl(e.instanceUrl(), path, request.getHttpURI().getQuery()));
            } catch (A2aException unreachable) {
                refuse(x, unreachable);
            }
        } catch (A2aException e) {
            refuse(x, e);
        } catch (RuntimeException e) {
            LOG.error("internal error answering {} {}", request.getMethod(), path, e);
            refuse(x, A2aError.INTERNAL.exception("Internal error"));
        }
    }

    /**
     * The body as a JSON object; none at all reads as {@code {}} (PEER @a2a-js/sdk 1.2.0: its
     * client POSTs :cancel and :subscribe with no body, but with a Content-Type).
     */
    private static JsonNode readBody(Exchange x) {
        if (!x.mediaType().isEmpty() || x.request().getLength() != 0) {
            x.requireJson();
        }
        byte[] bytes = x.readBody();
        if (bytes.length == 0) {
            return WireJson.mapper().createObjectNode();
        }
        JsonNode tree;
        try {
            tree = WireJson.mapper().readTree(bytes);
        } catch (JsonProcessingException e) {
            // PEER (@a2a-js/sdk 1.2.0): a body that is not JSON is INVALID_ARGUMENT with reason INVALID_PARAMS.
            throw A2aError.INVALID_PARAMS.exception("the body is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw A2aError.INVALID_PARAMS.exception("the body could not be read");
        }
        if (tree == null || tree.isMissingNode()) {
            return WireJson.mapper().createObjectNode();
        }
        if (!tree.isObject()) {
            throw A2aError.INVALID_PARAMS.exception("the body must be a JSON object, the request message in ProtoJSON");
        }
        return tree;
    }

    private static void refuse(Exchange x, A2aException e) {
        x.refuse(e, RestErrors.httpStatus(e.error()), JSON, status -> RestErrors.body(e, status));
    }

    /** The same resource on the instance that runs the conversation: its REST URL, the path, the query. */
    private static URI peerUrl(URI instanceJsonRpcUrl, String path, String query) {
        String base = ProtocolBinding.HTTP_JSON.urlFrom(instanceJsonRpcUrl.toString());
        return URI.create(base + path + (query == null || query.isEmpty() ? "" : "?" + query));
    }

    /** The error body of {@code e} answered with HTTP {@code status}, for answers given outside this handler. */
    public static String errorBody(A2aException e, int status) {
        return RestErrors.body(e, status);
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
