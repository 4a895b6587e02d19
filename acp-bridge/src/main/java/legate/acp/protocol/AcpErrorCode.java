package legate.acp.protocol;

/**
 * The JSON-RPC error codes ACP gives a meaning of its own (server-error range), beside the standard
 * codes in {@code legate.wire.jsonrpc.JsonRpcError}.
 */
public final class AcpErrorCode {
    /** PROTOCOL (ACP): the agent needs the client to authenticate first. PEER: both adapters say "Authentication required". */
    public static final int AUTH_REQUIRED = -32000;
    /** PROTOCOL (ACP): a resource (a file, a session) does not exist. */
    public static final int RESOURCE_NOT_FOUND = -32002;

    private AcpErrorCode() {
    }
}
