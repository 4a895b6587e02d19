package legate.wire.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON-RPC 2.0 message as it crosses the wire: a request (with an id, or a notification without
 * one) or a response. Ids are kept as the JSON value they arrived as, because a response must echo
 * a string id as a string and a number id as a number.
 */
public sealed interface JsonRpcMessage {

    /**
     * A request; {@code id} is null for a notification (no id member), a JSON null node for an
     * explicit {@code "id": null}.
     */
    record Request(JsonNode id, String method, JsonNode params) implements JsonRpcMessage {
        public Request {
            // JSON-RPC 2.0 §4: an id is a String, a Number or Null.
            if (id != null && !(id.isTextual() || id.isNumber() || id.isNull())) {
                throw new IllegalArgumentException("a JSON-RPC id must be a string, a number or null");
            }
            if (method == null || method.isEmpty()) {
                throw new IllegalArgumentException("a JSON-RPC request names its method");
            }
        }

        public boolean isNotification() {
            return id == null;
        }
    }

    /** A response: exactly one of result and error is set. */
    record Response(JsonNode id, JsonNode result, JsonRpcError error) implements JsonRpcMessage {
        public Response {
            // JSON-RPC 2.0 §5: either result or error, never both.
            if (result != null && error != null) {
                throw new IllegalArgumentException("a JSON-RPC response holds a result or an error, not both");
            }
        }

        public boolean isError() {
            return error != null;
        }
    }
}
