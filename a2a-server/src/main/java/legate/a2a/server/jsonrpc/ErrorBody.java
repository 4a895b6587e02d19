package legate.a2a.server.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.wire.json.WireJson;
import legate.wire.jsonrpc.JsonRpcCodec;
import legate.wire.jsonrpc.JsonRpcError;

/**
 * The JSON-RPC error body of an A2A error. PROTOCOL (A2A §9.5): {@code error.data} is an array
 * holding one google.rpc.ErrorInfo with the reason and the a2a-protocol.org domain; the JSON-RPC
 * codes that the JS SDK answers without data (-32700, -32601, -32603) carry none.
 */
final class ErrorBody {
    private ErrorBody() {
    }

    static String of(JsonNode id, A2aException e) {
        return of(id, e.error(), e.getMessage());
    }

    static String of(JsonNode id, A2aError error, String message) {
        JsonNode data = null;
        if (error.reason() != null) {
            ArrayNode details = WireJson.mapper().createArrayNode();
            ObjectNode info = details.addObject();
            info.put("@type", A2aError.ERROR_INFO_TYPE);
            info.put("reason", error.reason());
            info.put("domain", A2aError.DOMAIN);
            data = details;
        }
        return JsonRpcCodec.errorJson(id, new JsonRpcError(error.code(), message, data));
    }
}
