package legate.a2a.server.jsonrpc;

import static legate.a2a.model.A2aMethods.CANCEL_TASK;
import static legate.a2a.model.A2aMethods.CREATE_PUSH_CONFIG;
import static legate.a2a.model.A2aMethods.DELETE_PUSH_CONFIG;
import static legate.a2a.model.A2aMethods.GET_EXTENDED_AGENT_CARD;
import static legate.a2a.model.A2aMethods.GET_PUSH_CONFIG;
import static legate.a2a.model.A2aMethods.GET_TASK;
import static legate.a2a.model.A2aMethods.LIST_PUSH_CONFIGS;
import static legate.a2a.model.A2aMethods.LIST_TASKS;
import static legate.a2a.model.A2aMethods.SEND_MESSAGE;
import static legate.a2a.model.A2aMethods.SEND_STREAMING_MESSAGE;
import static legate.a2a.model.A2aMethods.SUBSCRIBE_TO_TASK;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Message;
import java.util.Map;
import legate.a2a.model.ProtoJson;
import legate.a2a.server.task.RequestHandler;
import legate.wire.json.WireJson;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.DeleteTaskPushNotificationConfigRequest;
import lf.a2a.v1.GetTaskPushNotificationConfigRequest;
import lf.a2a.v1.ListTaskPushNotificationConfigsRequest;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.TaskPushNotificationConfig;

/**
 * The method table of the JSON-RPC binding: each A2A method name (legate.a2a.model.A2aMethods)
 * mapped to the request handler call that answers it, as the authenticated caller. A name not in
 * the table gets -32601.
 */
final class MethodTable {
    /** The SSE header (HTML Living Standard §9.2.4) an EventSource sends when it reconnects: the last id it read. */
    static final String LAST_EVENT_ID = "Last-Event-ID";

    private MethodTable() {
    }

    static Map<String, JsonRpcMethod> table(RequestHandler h) {
        return Map.ofEntries(
                Map.entry(SEND_MESSAGE, (p, headers, caller) -> unary(ProtoJson.print(
                        h.sendMessage(params(p, SendMessageRequest.newBuilder()).build(), caller)))),
                Map.entry(SEND_STREAMING_MESSAGE, (p, headers, caller) -> new MethodResult.Stream(
                        h.sendStreamingMessage(params(p, SendMessageRequest.newBuilder()).build(), caller))),
                // PROTOCOL (A2A §9.4): GetTask and CancelTask answer a bare Task, not a wrapper.
                Map.entry(GET_TASK, (p, headers, caller) -> unary(ProtoJson.print(
                        h.getTask(params(p, GetTaskRequest.newBuilder()).build(), caller)))),
                Map.entry(LIST_TASKS, (p, headers, caller) -> {
                    ListTasksRequest req = params(p, ListTasksRequest.newBuilder()).build();
                    return unary(ProtoJson.printListTasks(h.listTasks(req, caller),
                            req.hasIncludeArtifacts() && req.getIncludeArtifacts()));
                }),
                Map.entry(CANCEL_TASK, (p, headers, caller) -> unary(ProtoJson.print(
                        h.cancelTask(params(p, CancelTaskRequest.newBuilder()).build(), caller)))),
                // The resumable-streams extension (README "Tasks that last"): a Last-Event-ID resumes a cut stream.
                Map.entry(SUBSCRIBE_TO_TASK, (p, headers, caller) -> new MethodResult.Stream(
                        h.subscribeToTask(params(p, SubscribeToTaskRequest.newBuilder()).build(),
                                headers.get(LAST_EVENT_ID), caller))),
                // PROTOCOL (A2A §9.4): CreateTaskPushNotificationConfig's params are the configuration itself.
                Map.entry(CREATE_PUSH_CONFIG, (p, headers, caller) -> unary(ProtoJson.print(
                        h.createPushConfig(params(p, TaskPushNotificationConfig.newBuilder()).build(), caller)))),
                Map.entry(GET_PUSH_CONFIG, (p, headers, caller) -> unary(ProtoJson.print(
                        h.getPushConfig(params(p, GetTaskPushNotificationConfigRequest.newBuilder()).build(), caller)))),
                Map.entry(LIST_PUSH_CONFIGS, (p, headers, caller) -> unary(ProtoJson.print(
                        h.listPushConfigs(params(p, ListTaskPushNotificationConfigsRequest.newBuilder()).build(),
                                caller)))),
                // PROTOCOL (A2A §9.4): DeleteTaskPushNotificationConfig answers null (google.protobuf.Empty).
                Map.entry(DELETE_PUSH_CONFIG, (p, headers, caller) -> {
                    h.deletePushConfig(params(p, DeleteTaskPushNotificationConfigRequest.newBuilder()).build(), caller);
                    return unary("null");
                }),
                Map.entry(GET_EXTENDED_AGENT_CARD, (p, headers, caller) -> unary(ProtoJson.print(h.extendedAgentCard()))));
    }

    /** Methods whose params may be omitted (PEER @a2a-js/sdk 1.2.0 allows it for this one only). */
    static boolean paramsOptional(String method) {
        return GET_EXTENDED_AGENT_CARD.equals(method);
    }

    private static MethodResult unary(String json) {
        return new MethodResult.Unary(json);
    }

    /** The request's params, straight from the Jackson tree into the builder (omitted params read as {}). */
    private static <B extends Message.Builder> B params(JsonNode params, B builder) {
        return ProtoJson.read(params == null ? WireJson.mapper().createObjectNode() : params, "params", builder);
    }
}
