package legate.a2a.model;

/**
 * Every error an A2A v1.0 JSON-RPC peer can answer with: the five JSON-RPC 2.0 codes and the nine
 * A2A codes of the -32001..-32099 range, each with the {@code google.rpc.ErrorInfo} reason it
 * carries and the HTTP status the JSON-RPC binding answers with.
 *
 * <p>How to choose between neighbours:
 * <ul>
 *   <li>{@link #INVALID_PARAMS} (-32602): the request itself is wrong whatever the state of the
 *       server (a missing messageId, a pageSize of 500, a contextId that contradicts its task).
 *   <li>{@link #TASK_NOT_FOUND} (-32001): the id is well formed but names no task the caller may see.
 *   <li>{@link #TASK_NOT_CANCELABLE} (-32002): the task exists but its state forbids a cancel, or
 *       the cancel was asked for and the task did not end CANCELED.
 *   <li>{@link #UNSUPPORTED_OPERATION} (-32004): the operation is valid but not here or not now
 *       (a message into a terminal task, subscribing to a finished task, a capability the card
 *       does not declare, a caller already running as many tasks as it may).
 *   <li>{@link #UNAUTHENTICATED} (-32000, HTTP 401): no credential, or one that is not accepted;
 *       answered before the request is read, so it never says whether a task exists.
 * </ul>
 *
 * <p>The HTTP statuses follow the JavaScript SDK 1.2.0 JSON-RPC binding: 200 for a
 * dispatched request whatever its outcome, 400 for a body that is not JSON-RPC at all, 500 for a
 * failure before dispatch (an unsupported A2A-Version).
 */
public enum A2aError {
    PARSE_ERROR(-32700, null, 400),
    INVALID_REQUEST(-32600, "INVALID_REQUEST", 400),
    METHOD_NOT_FOUND(-32601, null, 200),
    // PEER (@a2a-js/sdk 1.2.0): validation failures carry the JS-only reason INVALID_PARAMS.
    INVALID_PARAMS(-32602, "INVALID_PARAMS", 200),
    INTERNAL(-32603, null, 200),
    TASK_NOT_FOUND(-32001, "TASK_NOT_FOUND", 200),
    TASK_NOT_CANCELABLE(-32002, "TASK_NOT_CANCELABLE", 200),
    PUSH_NOTIFICATION_NOT_SUPPORTED(-32003, "PUSH_NOTIFICATION_NOT_SUPPORTED", 200),
    UNSUPPORTED_OPERATION(-32004, "UNSUPPORTED_OPERATION", 200),
    CONTENT_TYPE_NOT_SUPPORTED(-32005, "CONTENT_TYPE_NOT_SUPPORTED", 400),
    INVALID_AGENT_RESPONSE(-32006, "INVALID_AGENT_RESPONSE", 200),
    EXTENDED_AGENT_CARD_NOT_CONFIGURED(-32007, "EXTENDED_AGENT_CARD_NOT_CONFIGURED", 200),
    EXTENSION_SUPPORT_REQUIRED(-32008, "EXTENSION_SUPPORT_REQUIRED", 200),
    // PEER (@a2a-js/sdk 1.2.0): a version rejected before dispatch answers HTTP 500 on JSON-RPC.
    VERSION_NOT_SUPPORTED(-32009, "VERSION_NOT_SUPPORTED", 500),
    // PROTOCOL (A2A §3.3.2): an authentication failure is HTTP 401 / UNAUTHENTICATED. The spec gives
    // it no JSON-RPC code and reserves -32001..-32099 for its own errors, so Legate answers -32000,
    // the one implementation-defined server error code left, with the google.rpc.Code name as reason.
    UNAUTHENTICATED(-32000, "UNAUTHENTICATED", 401);

    /** The ErrorInfo domain every A2A error names (A2A §9.5). */
    public static final String DOMAIN = "a2a-protocol.org";
    /** The {@code @type} of a google.rpc.ErrorInfo detail. */
    public static final String ERROR_INFO_TYPE = "type.googleapis.com/google.rpc.ErrorInfo";

    private final int code;
    private final String reason;
    private final int httpStatus;

    A2aError(int code, String reason, int httpStatus) {
        this.code = code;
        this.reason = reason;
        this.httpStatus = httpStatus;
    }

    public int code() {
        return code;
    }

    /** The ErrorInfo reason, or null where the JS SDK sends no {@code data} (-32700, -32601, -32603). */
    public String reason() {
        return reason;
    }

    public int httpStatus() {
        return httpStatus;
    }

    /** The error with this JSON-RPC code, or null for a code this table does not know. */
    public static A2aError byCode(int code) {
        for (A2aError e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        return null;
    }

    public A2aException exception(String message) {
        return new A2aException(this, message);
    }
}
