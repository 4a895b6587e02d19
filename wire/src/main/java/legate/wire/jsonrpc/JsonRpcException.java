package legate.wire.jsonrpc;

/** A request that cannot be read as JSON-RPC 2.0; carries the standard code to answer with. */
public final class JsonRpcException extends Exception {
    private final int code;

    public JsonRpcException(int code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public int code() {
        return code;
    }
}
