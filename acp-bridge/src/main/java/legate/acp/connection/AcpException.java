package legate.acp.connection;

import legate.wire.jsonrpc.JsonRpcError;

/**
 * A JSON-RPC error in an ACP exchange: one the agent answered to a request of the bridge, or one the
 * bridge answers to a request of the agent.
 */
public final class AcpException extends Exception {
    private final transient JsonRpcError error;

    public AcpException(JsonRpcError error) {
        super(error.message() + " (" + error.code() + ")", null, false, false);
        this.error = error;
    }

    public AcpException(int code, String message) {
        this(new JsonRpcError(code, message, null));
    }

    public JsonRpcError error() {
        return error;
    }

    public int code() {
        return error.code();
    }
}
