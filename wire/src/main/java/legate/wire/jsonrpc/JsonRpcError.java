package legate.wire.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The {@code error} member of a JSON-RPC 2.0 response: a code, a message for people and optional
 * structured data (A2A puts an array of google.rpc.ErrorInfo objects there).
 */
public record JsonRpcError(int code, String message, JsonNode data) {
    /** JSON-RPC 2.0 §5.1: the body was not JSON. */
    public static final int PARSE_ERROR = -32700;
    /** JSON-RPC 2.0 §5.1: the JSON was not a Request object. */
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;

    public JsonRpcError {
        if (message == null) {
            message = "";
        }
    }
}
