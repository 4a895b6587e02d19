package legate.a2a.server.rest;

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

import com.google.protobuf.Message;
import java.util.Map;
import legate.a2a.model.ProtoJson;
import legate.a2a.server.task.RequestHandler;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.DeleteTaskPushNotificationConfigRequest;
import lf.a2a.v1.GetTaskPushNotificationConfigRequest;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTaskPushNotificationConfigsRequest;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.TaskPushNotificationConfig;

/**
 * The operation table of the HTTP+JSON binding: each A2A operation (by its method name, as
 * {@link RestResource} maps paths to them) and the request handler call that answers it, as the
 * authenticated caller. PROTOCOL (A2A §11.3): a request message is the body for POST, the query for
 * GET, with the ids and the tenant of the path written over whatever the body or query said.
 */
final class RestOperations {
    /** The SSE header (HTML Living Standard §9.2.4) an EventSource sends when it reconnects: the last id it read. */
    static final String LAST_EVENT_ID = "Last-Event-ID";

    /** One operation over HTTP+JSON. */
    @FunctionalInterface
    interface Operation {
        RestResult call(RestCall call);
    }

    private RestOperations() {
    }

    static Map<String, Operation> table(RequestHandler h) {
        return Map.ofEntries(
                Map.entry(SEND_MESSAGE, c -> ok(ProtoJson.print(h.sendMessage(fromBody(c, SendMessageRequest.newBuilder(),
                        SendMessageRequest.Builder::setTenant).build(), c.caller())))),
                Map.entry(SEND_STREAMING_MESSAGE, c -> new RestResult.Stream(h.sendStreamingMessage(fromBody(c,
                        SendMessageRequest.newBuilder(), SendMessageRequest.Builder::setTenant).build(), c.caller()))),
                // PROTOCOL (A2A §11.3): GetTask and CancelTask answer a bare Task.
                Map.entry(GET_TASK, c -> ok(ProtoJson.print(h.getTask(fromQuery(c, GetTaskRequest.newBuilder(),
                        GetTaskRequest.Builder::setTenant).setId(c.route().taskId()).build(), c.caller())))),
                Map.entry(LIST_TASKS, c -> {
                    ListTasksRequest req = fromQuery(c, ListTasksRequest.newBuilder(), ListTasksRequest.Builder::setTenant)
                            .build();
                    return ok(ProtoJson.printListTasks(h.listTasks(req, c.caller()),
                            req.hasIncludeArtifacts() && req.getIncludeArtifacts()));
                }),
                Map.entry(CANCEL_TASK, c -> ok(ProtoJson.print(h.cancelTask(fromBody(c, CancelTaskRequest.newBuilder(),
                        CancelTaskRequest.Builder::setTenant).setId(c.route().taskId()).build(), c.caller())))),
                // The resumable-streams extension (README "Tasks that last"): a Last-Event-ID resumes a cut stream.
                Map.entry(SUBSCRIBE_TO_TASK, c -> new RestResult.Stream(h.subscribeToTask(fromBody(c,
                        SubscribeToTaskRequest.newBuilder(), SubscribeToTaskRequest.Builder::setTenant)
                        .setId(c.route().taskId()).build(), c.headers().get(LAST_EVENT_ID), c.caller()))),
                // PROTOCOL (A2A §11.3): the body is the configuration; the path's task id is written over the
                // body's (PEER @a2a-js/sdk 1.2.0 reads only the body's, so its clients send both). 201, as the SDK.
                Map.entry(CREATE_PUSH_CONFIG, c -> new RestResult.Unary(201, ProtoJson.print(h.createPushConfig(
                        fromBody(c, TaskPushNotificationConfig.newBuilder(), TaskPushNotificationConfig.Builder::setTenant)
                                .setTaskId(c.route().taskId()).build(), c.caller())))),
                Map.entry(GET_PUSH_CONFIG, c -> ok(ProtoJson.print(h.getPushConfig(fromQuery(c,
                        GetTaskPushNotificationConfigRequest.newBuilder(), GetTaskPushNotificationConfigRequest.Builder::setTenant)
                        .setTaskId(c.route().taskId()).setId(c.route().configId()).build(), c.caller())))),
                Map.entry(LIST_PUSH_CONFIGS, c -> ok(ProtoJson.print(h.listPushConfigs(fromQuery(c,
                        ListTaskPushNotificationConfigsRequest.newBuilder(),
                        ListTaskPushNotificationConfigsRequest.Builder::setTenant)
                        .setTaskId(c.route().taskId()).build(), c.caller())))),
                // PROTOCOL (A2A §11.3): google.protobuf.Empty; 204 without a body, as the SDK answers.
                Map.entry(DELETE_PUSH_CONFIG, c -> {
                    h.deletePushConfig(fromQuery(c, DeleteTaskPushNotificationConfigRequest.newBuilder(),
                            DeleteTaskPushNotificationConfigRequest.Builder::setTenant)
                            .setTaskId(c.route().taskId()).setId(c.route().configId()).build(), c.caller());
                    return new RestResult.Unary(204, "");
                }),
                Map.entry(GET_EXTENDED_AGENT_CARD, c -> ok(ProtoJson.print(h.extendedAgentCard()))));
    }

    private static RestResult ok(String json) {
        return new RestResult.Unary(200, json);
    }

    /** The body read into the request message, the path's tenant written over the body's. */
    private static <B extends Message.Builder> B fromBody(RestCall c, B builder, TenantSetter<B> setTenant) {
        return withTenant(c, ProtoJson.read(c.body(), "body", builder), setTenant);
    }

    /** The query read into the request message, the path's tenant written over the query's. */
    private static <B extends Message.Builder> B fromQuery(RestCall c, B builder, TenantSetter<B> setTenant) {
        return withTenant(c, QueryParameters.read(c.query(), builder), setTenant);
    }

    /** PEER (@a2a-js/sdk 1.2.0): the path's tenant wins over the body's or the query's. */
    private static <B> B withTenant(RestCall c, B builder, TenantSetter<B> setTenant) {
        return c.route().tenant().isEmpty() ? builder : setTenant.set(builder, c.route().tenant());
    }

    @FunctionalInterface
    private interface TenantSetter<B> {
        B set(B builder, String tenant);
    }
}
