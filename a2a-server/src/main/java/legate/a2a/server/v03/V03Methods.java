package legate.a2a.server.v03;

/** The JSON-RPC method names of A2A v0.3 (A2A v0.3 §7), each the v1.0 operation named beside it. */
final class V03Methods {
    /** SendMessage. */
    static final String MESSAGE_SEND = "message/send";
    /** SendStreamingMessage. */
    static final String MESSAGE_STREAM = "message/stream";
    /** GetTask. */
    static final String TASKS_GET = "tasks/get";
    /** CancelTask. */
    static final String TASKS_CANCEL = "tasks/cancel";
    /** SubscribeToTask. */
    static final String TASKS_RESUBSCRIBE = "tasks/resubscribe";
    /** CreateTaskPushNotificationConfig. */
    static final String PUSH_CONFIG_SET = "tasks/pushNotificationConfig/set";
    /** GetTaskPushNotificationConfig. */
    static final String PUSH_CONFIG_GET = "tasks/pushNotificationConfig/get";
    /** ListTaskPushNotificationConfigs. */
    static final String PUSH_CONFIG_LIST = "tasks/pushNotificationConfig/list";
    /** DeleteTaskPushNotificationConfig. */
    static final String PUSH_CONFIG_DELETE = "tasks/pushNotificationConfig/delete";
    /** GetExtendedAgentCard. */
    static final String GET_AUTHENTICATED_EXTENDED_CARD = "agent/getAuthenticatedExtendedCard";

    private V03Methods() {
    }
}
