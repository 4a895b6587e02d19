package legate.a2a.model;

/**
 * The A2A v1.0 operations by their JSON-RPC method names, shared by the server's method table and
 * the client. PROTOCOL (A2A §5.3, §9.3): the names are the PascalCase gRPC names; the v0.3 slash
 * names ("message/send", "tasks/get") are not A2A 1.0 methods.
 */
public final class A2aMethods {
    public static final String SEND_MESSAGE = "SendMessage";
    public static final String SEND_STREAMING_MESSAGE = "SendStreamingMessage";
    public static final String GET_TASK = "GetTask";
    public static final String LIST_TASKS = "ListTasks";
    public static final String CANCEL_TASK = "CancelTask";
    public static final String SUBSCRIBE_TO_TASK = "SubscribeToTask";
    public static final String CREATE_PUSH_CONFIG = "CreateTaskPushNotificationConfig";
    public static final String GET_PUSH_CONFIG = "GetTaskPushNotificationConfig";
    /** Plural, unlike its neighbours. */
    public static final String LIST_PUSH_CONFIGS = "ListTaskPushNotificationConfigs";
    public static final String DELETE_PUSH_CONFIG = "DeleteTaskPushNotificationConfig";
    public static final String GET_EXTENDED_AGENT_CARD = "GetExtendedAgentCard";

    private A2aMethods() {
    }
}
