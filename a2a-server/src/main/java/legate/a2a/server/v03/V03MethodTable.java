package legate.a2a.server.v03;

import static legate.a2a.server.v03.V03Methods.GET_AUTHENTICATED_EXTENDED_CARD;
import static legate.a2a.server.v03.V03Methods.MESSAGE_SEND;
import static legate.a2a.server.v03.V03Methods.MESSAGE_STREAM;
import static legate.a2a.server.v03.V03Methods.PUSH_CONFIG_DELETE;
import static legate.a2a.server.v03.V03Methods.PUSH_CONFIG_GET;
import static legate.a2a.server.v03.V03Methods.PUSH_CONFIG_LIST;
import static legate.a2a.server.v03.V03Methods.PUSH_CONFIG_SET;
import static legate.a2a.server.v03.V03Methods.TASKS_CANCEL;
import static legate.a2a.server.v03.V03Methods.TASKS_GET;
import static legate.a2a.server.v03.V03Methods.TASKS_RESUBSCRIBE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.Map;
import legate.a2a.server.Principal;
import legate.a2a.server.jsonrpc.JsonRpcMethod;
import legate.a2a.server.jsonrpc.MethodResult;
import legate.a2a.server.task.RequestHandler;
import legate.wire.json.WireJson;
import lf.a2a.v1.DeleteTaskPushNotificationConfigRequest;
import lf.a2a.v1.GetTaskPushNotificationConfigRequest;
import lf.a2a.v1.ListTaskPushNotificationConfigsRequest;
import lf.a2a.v1.ListTaskPushNotificationConfigsResponse;
import lf.a2a.v1.SendMessageResponse;
import lf.a2a.v1.TaskPushNotificationConfig;

/**
 * The method table of the v0.3 JSON-RPC dialect: each v0.3 method name mapped to the v1.0 request
 * handler call that answers it, its params translated in and its result translated out. A name
 * not in the table (a v1.0 name such as {@code SendMessage}, or v0.3's never-defined
 * {@code tasks/list}) gets -32601.
 */
final class V03MethodTable {
    /** The SSE header an EventSource sends when it reconnects (HTML Living Standard §9.2.4). */
    static final String LAST_EVENT_ID = "Last-Event-ID";
    /** The most pages of push configs one tasks/pushNotificationConfig/list reads (v0.3 has no paging). */
    private static final int MAX_PAGES = 100;

    private V03MethodTable() {
    }

    static Map<String, JsonRpcMethod> table(RequestHandler h) {
        return Map.ofEntries(
                Map.entry(MESSAGE_SEND, (p, headers, caller) -> {
                    SendMessageResponse r = h.sendMessage(V03Requests.sendMessage(p), caller);
                    // PROTOCOL (A2A v0.3 §7.1): the result is the Task or the Message itself, told apart by kind.
                    return unary(r.hasMessage() ? V03Messages.toV03(r.getMessage()) : V03Tasks.task(r.getTask()));
                }),
                Map.entry(MESSAGE_STREAM, (p, headers, caller) ->
                        new MethodResult.Stream(h.sendStreamingMessage(V03Requests.sendMessage(p), caller))),
                Map.entry(TASKS_GET, (p, headers, caller) -> unary(V03Tasks.task(h.getTask(V03Requests.getTask(p), caller)))),
                Map.entry(TASKS_CANCEL, (p, headers, caller) ->
                        unary(V03Tasks.task(h.cancelTask(V03Requests.cancelTask(p), caller)))),
                // PROTOCOL (A2A v0.3 §7.9): what a resubscription backfills is the server's choice; here it is
                // v1.0's: the snapshot, then the live events, or with Last-Event-ID the events after it
                // (the resumable-streams extension, README "Tasks that last").
                Map.entry(TASKS_RESUBSCRIBE, (p, headers, caller) -> new MethodResult.Stream(
                        h.subscribeToTask(V03Requests.resubscribe(p), headers.get(LAST_EVENT_ID), caller))),
                Map.entry(PUSH_CONFIG_SET, (p, headers, caller) ->
                        unary(V03PushConfigs.toV03(createPushConfig(h, V03PushConfigs.setToV1(p), caller)))),
                Map.entry(PUSH_CONFIG_GET, (p, headers, caller) ->
                        unary(V03PushConfigs.toV03(getPushConfig(h, V03PushConfigs.getToV1(p), caller)))),
                Map.entry(PUSH_CONFIG_LIST, (p, headers, caller) -> unary(allPushConfigs(h, V03PushConfigs.listToV1(p), caller))),
                Map.entry(PUSH_CONFIG_DELETE, (p, headers, caller) -> {
                    deletePushConfig(h, V03PushConfigs.deleteToV1(p), caller);
                    return new MethodResult.Unary("null");
                }),
                Map.entry(GET_AUTHENTICATED_EXTENDED_CARD, (p, headers, caller) -> unary(V03Cards.toV03(h.extendedAgentCard()))));
    }

    /** Methods whose params may be omitted: v0.3's card method takes none (A2A v0.3 §7.10). */
    static boolean paramsOptional(String method) {
        return GET_AUTHENTICATED_EXTENDED_CARD.equals(method);
    }

    private static TaskPushNotificationConfig createPushConfig(RequestHandler h, TaskPushNotificationConfig config,
                                                               Principal caller) {
        return h.createPushConfig(config, caller);
    }

    private static TaskPushNotificationConfig getPushConfig(RequestHandler h, GetTaskPushNotificationConfigRequest request,
                                                            Principal caller) {
        return h.getPushConfig(request, caller);
    }

    private static ListTaskPushNotificationConfigsResponse listPushConfigs(RequestHandler h,
                                                                          ListTaskPushNotificationConfigsRequest request,
                                                                          Principal caller) {
        return h.listPushConfigs(request, caller);
    }

    private static void deletePushConfig(RequestHandler h, DeleteTaskPushNotificationConfigRequest request,
                                         Principal caller) {
        h.deletePushConfig(request, caller);
    }

    /** v0.3 answers the whole list at once: every page of v1.0's list, bounded. */
    private static ArrayNode allPushConfigs(RequestHandler h, ListTaskPushNotificationConfigsRequest first,
                                            Principal caller) {
        ArrayNode out = WireJson.mapper().createArrayNode();
        ListTaskPushNotificationConfigsRequest request = first;
        for (int page = 0; page < MAX_PAGES; page++) {
            ListTaskPushNotificationConfigsResponse r = listPushConfigs(h, request, caller);
            r.getConfigsList().forEach(c -> out.add(V03PushConfigs.toV03(c)));
            if (r.getNextPageToken().isEmpty()) {
                break;
            }
            request = request.toBuilder().setPageToken(r.getNextPageToken()).build();
        }
        return out;
    }

    private static MethodResult unary(JsonNode result) {
        return new MethodResult.Unary(WireJson.write(result));
    }
}
