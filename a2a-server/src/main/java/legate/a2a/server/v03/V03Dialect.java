package legate.a2a.server.v03;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.Map;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aHeaders;
import legate.a2a.server.jsonrpc.JsonRpcDialect;
import legate.a2a.server.jsonrpc.JsonRpcMethod;
import legate.a2a.server.task.RequestHandler;
import legate.wire.json.WireJson;
import legate.wire.jsonrpc.JsonRpcCodec;
import legate.wire.jsonrpc.JsonRpcError;
import lf.a2a.v1.StreamResponse;
import legate.a2a.server.http.Exchange;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Fields;

/**
 * A2A v0.3 JSON-RPC, served beside v1.0 at {@code v0.3/} under the JSON-RPC URL and translated to
 * and from the v1.0 model here, so the request handler and the executors never see v0.3: the v0.3
 * method names ({@link V03MethodTable}), the v0.3 shapes ({@code kind} discriminators, kebab-case
 * states, {@code final}, file parts; {@link V03Events} and the classes it uses), and v0.3 errors.
 * What cannot be translated one to one is listed in docs/peers.md §7.
 */
public final class V03Dialect implements JsonRpcDialect {
    /** The label of v0.3 requests and streams in the metrics. */
    public static final String BINDING = "jsonrpc-0.3";
    /** The path of the v0.3 endpoint relative to the JSON-RPC URL (ProtocolBinding.JSONRPC_0_3). */
    public static final String RELATIVE_PATH = "v0.3/";

    @Override
    public String binding() {
        return BINDING;
    }

    @Override
    public Map<String, JsonRpcMethod> methods(RequestHandler handler) {
        return V03MethodTable.table(handler);
    }

    @Override
    public boolean paramsOptional(String method) {
        return V03MethodTable.paramsOptional(method);
    }

    /**
     * PROTOCOL (A2A §3.6): an absent or empty A2A-Version means 0.3, which is what a v0.3 client
     * sends (v0.3 had no such header); 0.3 itself is accepted too. Another version is -32009: a
     * v1.0 client belongs at the JSON-RPC URL, not here.
     */
    @Override
    public void checkVersion(Exchange exchange) {
        Request request = exchange.request();
        String version = request.getHeaders().get(A2aHeaders.VERSION);
        if (version == null || version.isBlank()) {
            Fields query = Request.extractQueryParameters(request);
            version = query.getValue(A2aHeaders.VERSION);
        }
        String v = version == null ? "" : version.trim();
        if (!v.isEmpty() && !v.equals(V03Cards.VERSION) && !v.startsWith(V03Cards.VERSION + ".")) {
            throw A2aError.VERSION_NOT_SUPPORTED.exception("A2A version " + v + " is not served at this URL, which"
                    + " speaks A2A 0.3; A2A " + A2aHeaders.PROTOCOL_VERSION + " is served at the agent card's"
                    + " JSONRPC interface of protocolVersion " + A2aHeaders.PROTOCOL_VERSION);
        }
    }

    /**
     * PROTOCOL (A2A v0.3 §8): a v0.3 error is {@code {code, message}}; the codes are v1.0's
     * (-32001 to -32007 mean the same), and v1.0's ErrorInfo in {@code data} is not v0.3's, so
     * it is left out (PEER @a2a-js/sdk 1.2.0 compat server: the same).
     */
    @Override
    public String errorJson(JsonNode id, A2aError error, String message) {
        return JsonRpcCodec.errorJson(id, new JsonRpcError(error.code(), message, null));
    }

    @Override
    public void printEvent(StreamResponse event, StringBuilder out) {
        out.append(WireJson.write(V03Events.toV03(event)));
    }

    @Override
    public URI peerUrl(URI instanceUrl) {
        String s = instanceUrl.toString();
        return URI.create(s.endsWith("/") ? s : s + "/").resolve(RELATIVE_PATH);
    }
}
