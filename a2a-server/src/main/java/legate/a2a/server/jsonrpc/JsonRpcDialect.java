package legate.a2a.server.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.Map;
import legate.a2a.model.A2aError;
import legate.a2a.server.task.RequestHandler;
import lf.a2a.v1.StreamResponse;
import legate.a2a.server.http.Exchange;

/**
 * The version of A2A's JSON-RPC binding one {@link JsonRpcHandler} speaks: its method names, the
 * A2A-Version it accepts, how its results, stream events and errors look on the wire. The edge
 * around it (credential, content type, body limit, envelope, lingering close, drain, forwarding,
 * metrics) is the handler's and the same for every dialect; the request handler behind it sees
 * only the v1.0 model.
 *
 * <p>{@link #V1_0} is A2A 1.0 (A2A §9); {@code legate.a2a.server.v03.V03Dialect} is A2A 0.3,
 * translated at this edge.
 */
public interface JsonRpcDialect {
    /** A2A 1.0 JSON-RPC: the method table of {@link MethodTable}, ProtoJSON, ErrorInfo in {@code error.data}. */
    JsonRpcDialect V1_0 = new A2aV1Dialect();

    /** The label of this dialect's requests and streams in the metrics ({@code binding}). */
    String binding();

    /** Each method name of this dialect mapped to the request handler call that answers it. */
    Map<String, JsonRpcMethod> methods(RequestHandler handler);

    /** Whether {@code method} may be called without params. */
    boolean paramsOptional(String method);

    /**
     * Refuses a request whose A2A-Version (A2A §3.6: the header, else the query parameter) this
     * dialect does not speak, with -32009.
     */
    void checkVersion(Exchange exchange);

    /** The JSON-RPC error response of {@code error}, with the request's id. */
    String errorJson(JsonNode id, A2aError error, String message);

    /** Appends one stream event as this dialect's JSON-RPC {@code result}. */
    void printEvent(StreamResponse event, StringBuilder out);

    /** Where another instance answers this dialect, given the JSON-RPC URL it announced. */
    URI peerUrl(URI instanceUrl);
}
