package legate.a2a.server.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.Map;
import legate.a2a.model.A2aError;
import legate.a2a.model.ProtoJson;
import legate.a2a.server.task.RequestHandler;
import lf.a2a.v1.StreamResponse;
import legate.a2a.server.http.Exchange;

/** A2A 1.0 JSON-RPC (A2A §9): the dialect every Legate server speaks at its JSON-RPC URL. */
final class A2aV1Dialect implements JsonRpcDialect {
    @Override
    public String binding() {
        return JsonRpcHandler.BINDING;
    }

    @Override
    public Map<String, JsonRpcMethod> methods(RequestHandler handler) {
        return MethodTable.table(handler);
    }

    @Override
    public boolean paramsOptional(String method) {
        return MethodTable.paramsOptional(method);
    }

    @Override
    public void checkVersion(Exchange exchange) {
        exchange.checkVersion();
    }

    @Override
    public String errorJson(JsonNode id, A2aError error, String message) {
        return ErrorBody.of(id, error, message);
    }

    @Override
    public void printEvent(StreamResponse event, StringBuilder out) {
        ProtoJson.printTo(event, out);
    }

    @Override
    public URI peerUrl(URI instanceUrl) {
        return instanceUrl;
    }
}
