package legate.wire.jsonrpc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import legate.wire.json.WireJson;

/**
 * Reads and writes JSON-RPC 2.0 envelopes. Reading is bounded (see {@link WireJson}) so a hostile
 * body costs a clear error, not the process; the caller bounds the byte length.
 */
public final class JsonRpcCodec {
    private static final JsonStringEncoder JSON_STRINGS = JsonStringEncoder.getInstance();

    private JsonRpcCodec() {
    }

    /** Parses JSON text into a tree, mapping every parse failure to -32700 with a readable message. */
    public static JsonNode parseTree(byte[] body) throws JsonRpcException {
        try {
            JsonNode node = WireJson.mapper().readTree(body);
            if (node == null || node.isMissingNode()) {
                throw new JsonRpcException(JsonRpcError.PARSE_ERROR, "Parse error: the request body is empty");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new JsonRpcException(JsonRpcError.PARSE_ERROR, "Parse error: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new JsonRpcException(JsonRpcError.PARSE_ERROR, "Parse error: unreadable body");
        }
    }

    /**
     * The id member of a request object, as far as it can be trusted: used to answer even a request
     * that fails validation. Returns a JSON null node when there is none or it is not a valid id.
     */
    public static JsonNode idOf(JsonNode tree) {
        JsonNode id = tree != null && tree.isObject() ? tree.get("id") : null;
        if (id != null && (id.isTextual() || id.isNumber())) {
            return id;
        }
        return JsonNodeFactory.instance.nullNode();
    }

    /** Checks a parsed tree is a JSON-RPC 2.0 Request object (§4) and returns it as one. */
    public static JsonRpcMessage.Request toRequest(JsonNode tree) throws JsonRpcException {
        if (tree.isArray()) {
            throw new JsonRpcException(JsonRpcError.INVALID_REQUEST, "Invalid Request: batch requests are not supported");
        }
        if (!tree.isObject()) {
            throw new JsonRpcException(JsonRpcError.INVALID_REQUEST, "Invalid Request: the body must be a JSON object");
        }
        JsonNode version = tree.get("jsonrpc");
        if (version == null || !version.isTextual() || !"2.0".equals(version.textValue())) {
            throw new JsonRpcException(JsonRpcError.INVALID_REQUEST, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
        }
        JsonNode method = tree.get("method");
        if (method == null || !method.isTextual() || method.textValue().isEmpty()) {
            throw new JsonRpcException(JsonRpcError.INVALID_REQUEST, "Invalid Request: \"method\" must be a non-empty string");
        }
        JsonNode id = tree.get("id");
        if (id != null && !(id.isTextual() || id.isNumber() || id.isNull())) {
            throw new JsonRpcException(JsonRpcError.INVALID_REQUEST, "Invalid Request: \"id\" must be a string, a number or null");
        }
        JsonNode params = tree.get("params");
        return new JsonRpcMessage.Request(id, method.textValue(), params);
    }

    /** Serialises a successful response around an already-serialised result. */
    public static String resultJson(JsonNode id, String resultJson) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + idJson(id) + ",\"result\":" + resultJson + "}";
    }

    /** Serialises an error response. */
    public static String errorJson(JsonNode id, JsonRpcError error) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("jsonrpc", "2.0");
        root.set("id", id == null ? JsonNodeFactory.instance.nullNode() : id);
        ObjectNode err = root.putObject("error");
        err.put("code", error.code());
        err.put("message", error.message());
        if (error.data() != null) {
            err.set("data", error.data());
        }
        return WireJson.write(root);
    }

    /**
     * The id as it goes back on the wire. Not {@code JsonNode.toString()}: see {@link WireJson#write}
     * for what that cost per virtual thread.
     */
    public static String idJson(JsonNode id) {
        if (id == null || id.isNull()) {
            return "null";
        }
        if (id.isNumber()) {
            return id.asText();
        }
        if (id.isTextual()) {
            StringBuilder sb = new StringBuilder(id.textValue().length() + 2).append('"');
            JSON_STRINGS.quoteAsString(id.textValue(), sb);
            return sb.append('"').toString();
        }
        return WireJson.write(id);
    }

    /** Reads a response envelope (client side). */
    public static JsonRpcMessage.Response toResponse(JsonNode tree) throws JsonRpcException {
        if (!tree.isObject()) {
            throw new JsonRpcException(JsonRpcError.INVALID_REQUEST, "not a JSON-RPC response object");
        }
        JsonNode error = tree.get("error");
        if (error != null && !error.isNull()) {
            if (!error.isObject()) {
                throw new JsonRpcException(JsonRpcError.INVALID_REQUEST, "JSON-RPC \"error\" is not an object");
            }
            JsonNode code = error.get("code");
            JsonNode message = error.get("message");
            JsonNode data = error.get("data");
            return new JsonRpcMessage.Response(tree.get("id"), null, new JsonRpcError(
                    code != null && code.canConvertToInt() ? code.intValue() : JsonRpcError.INTERNAL_ERROR,
                    message != null ? message.asText() : "", data));
        }
        JsonNode result = tree.get("result");
        if (result == null) {
            throw new JsonRpcException(JsonRpcError.INVALID_REQUEST, "JSON-RPC response has neither result nor error");
        }
        return new JsonRpcMessage.Response(tree.get("id"), result, null);
    }
}
