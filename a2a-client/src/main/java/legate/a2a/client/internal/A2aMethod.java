package legate.a2a.client.internal;

/**
 * The A2A operations a client calls, by name. PROTOCOL (A2A §9.3): JSON-RPC method names are the
 * PascalCase gRPC names of v1.0; the v0.3 slash names are gone.
 */
public final class A2aMethod {
    public static final String SEND_MESSAGE = "SendMessage";
    public static final String SEND_STREAMING_MESSAGE = "SendStreamingMessage";
    public static final String GET_TASK = "GetTask";
    public static final String LIST_TASKS = "ListTasks";
    public static final String CANCEL_TASK = "CancelTask";
    public static final String SUBSCRIBE_TO_TASK = "SubscribeToTask";

    private A2aMethod() {
    }
}
