package legate.wire.jsonrpc;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.io.StringWriter;
import legate.wire.json.WireJson;

/**
 * Reads and writes JSON-RPC 2.0 envelopes; every envelope Legate sends is written here. Reading is
 * bounded (see {@link WireJson}) so a hostile body costs a clear error, not the process; the
 * caller bounds the byte length.
 *
 * <p>Writing comes in two kinds. A message whose members are Jackson trees (ACP, errors) is
 * written whole by {@link #write}. A result or params already printed as text (A2A's ProtoJSON)
 * is wrapped without a tree: {@link #resultJson} and {@link #requestJson} around a string, or
 * {@link #openResult}/{@link #openRequest} then {@link #closeEnvelope} around text the caller
 * appends to the same buffer, which is how a stream builds each frame in one buffer.
 */
public final class JsonRpcCodec {
    private static final String ID_HEAD = "{\"jsonrpc\":\"2.0\",\"id\":";
    private static final String RESULT_MEMBER = ",\"result\":";
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

    /**
     * A message as one line of compact JSON (ACP frames its messages by line). A request's params
     * member is left out when it has none; a response's missing id or result is written as null.
     */
    public static String write(JsonRpcMessage message) {
        StringWriter out = new StringWriter(256);
        try (JsonGenerator g = WireJson.mapper().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("jsonrpc", "2.0");
            switch (message) {
                case JsonRpcMessage.Request r -> {
                    if (!r.isNotification()) {
                        tree(g, "id", r.id());
                    }
                    g.writeStringField("method", r.method());
                    if (r.params() != null) {
                        tree(g, "params", r.params());
                    }
                }
                case JsonRpcMessage.Response r -> {
                    tree(g, "id", r.id());
                    if (r.isError()) {
                        g.writeObjectFieldStart("error");
                        g.writeNumberField("code", r.error().code());
                        g.writeStringField("message", r.error().message());
                        if (r.error().data() != null) {
                            tree(g, "data", r.error().data());
                        }
                        g.writeEndObject();
                    } else {
                        tree(g, "result", r.result());
                    }
                }
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("a JSON-RPC message could not be written", e);
        }
        return out.toString();
    }

    private static void tree(JsonGenerator g, String name, JsonNode value) throws IOException {
        g.writeFieldName(name);
        g.writeTree(value == null ? JsonNodeFactory.instance.nullNode() : value);
    }

    /** An error response; a null id is written as null (JSON-RPC 2.0 §5: the request's id was unreadable). */
    public static String errorJson(JsonNode id, JsonRpcError error) {
        return write(new JsonRpcMessage.Response(id, null, error));
    }

    /** A successful response around an already-printed result. */
    public static String resultJson(JsonNode id, String resultJson) {
        return ID_HEAD + idJson(id) + RESULT_MEMBER + resultJson + "}";
    }

    /** A request around already-printed params. */
    public static String requestJson(long id, String method, String paramsJson) {
        return closeEnvelope(openRequest(id, method, new StringBuilder(paramsJson.length() + 64)).append(paramsJson)).toString();
    }

    /**
     * Appends a response envelope up to where its result goes; the caller appends the result, then
     * {@link #closeEnvelope}.
     *
     * @param idJson the request's id as {@link #idJson} printed it (once per stream, not per frame)
     */
    public static StringBuilder openResult(String idJson, StringBuilder out) {
        return out.append(ID_HEAD).append(idJson).append(RESULT_MEMBER);
    }

    /** Appends a request envelope up to where its params go; the caller appends them, then {@link #closeEnvelope}. */
    public static StringBuilder openRequest(long id, String method, StringBuilder out) {
        out.append(ID_HEAD).append(id).append(",\"method\":\"");
        JSON_STRINGS.quoteAsString(method, out);
        return out.append("\",\"params\":");
    }

    /** Closes an envelope opened by {@link #openResult} or {@link #openRequest}. */
    public static StringBuilder closeEnvelope(StringBuilder out) {
        return out.append('}');
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
}
