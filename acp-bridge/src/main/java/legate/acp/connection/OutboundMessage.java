package legate.acp.connection;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import legate.wire.jsonrpc.JsonRpcError;

/** The JSON-RPC 2.0 messages the client writes to an agent, one JSON object per line. */
final class OutboundMessage {
    private OutboundMessage() {
    }

    static ObjectNode request(long id, String method, JsonNode params) {
        ObjectNode msg = notification(method, params);
        msg.put("id", id);
        return msg;
    }

    static ObjectNode notification(String method, JsonNode params) {
        ObjectNode msg = envelope();
        msg.put("method", method);
        msg.set("params", params);
        return msg;
    }

    /** PROTOCOL (JSON-RPC 2.0 §5): a response echoes the request's id as it came, string or number. */
    static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode msg = envelope();
        msg.set("id", id);
        msg.set("result", result == null ? JsonNodeFactory.instance.nullNode() : result);
        return msg;
    }

    static ObjectNode error(JsonNode id, JsonRpcError error) {
        ObjectNode msg = envelope();
        msg.set("id", id);
        ObjectNode e = msg.putObject("error");
        e.put("code", error.code());
        e.put("message", error.message());
        if (error.data() != null) {
            e.set("data", error.data());
        }
        return msg;
    }

    private static ObjectNode envelope() {
        ObjectNode msg = JsonNodeFactory.instance.objectNode();
        msg.put("jsonrpc", "2.0");
        return msg;
    }
}
