package legate.a2a.server.v03;

import static legate.a2a.server.v03.V03Input.object;
import static legate.a2a.server.v03.V03Input.optionalBoolean;
import static legate.a2a.server.v03.V03Input.optionalInt;
import static legate.a2a.server.v03.V03Input.optionalObject;
import static legate.a2a.server.v03.V03Input.string;
import static legate.a2a.server.v03.V03Input.strings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.SendMessageConfiguration;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.SubscribeToTaskRequest;

/**
 * The params of the v0.3 task methods as v1.0 requests: MessageSendParams (message/send,
 * message/stream), TaskQueryParams (tasks/get) and TaskIdParams (tasks/cancel, tasks/resubscribe).
 */
final class V03Requests {
    private static final String PARAMS = "params";

    private V03Requests() {
    }

    static SendMessageRequest sendMessage(JsonNode params) {
        ObjectNode p = object(params, PARAMS);
        SendMessageRequest.Builder out = SendMessageRequest.newBuilder()
                .setMessage(V03Messages.toV1(p.get("message"), PARAMS + ".message"));
        ObjectNode configuration = optionalObject(p, "configuration", PARAMS);
        if (configuration != null) {
            out.setConfiguration(configuration(configuration, PARAMS + ".configuration"));
        }
        ObjectNode metadata = optionalObject(p, "metadata", PARAMS);
        if (metadata != null) {
            out.setMetadata(StructJson.struct(metadata));
        }
        return out.build();
    }

    private static SendMessageConfiguration configuration(ObjectNode c, String path) {
        SendMessageConfiguration.Builder out = SendMessageConfiguration.newBuilder()
                .addAllAcceptedOutputModes(strings(c, "acceptedOutputModes", path));
        Integer historyLength = optionalInt(c, "historyLength", path);
        if (historyLength != null) {
            out.setHistoryLength(historyLength);
        }
        // PROTOCOL (A2A v0.3 §7.1.1): blocking means "wait for the task"; v1.0 has the opposite flag,
        // returnImmediately. PEER (@a2a-js/sdk 0.3.14): an absent blocking is blocking, as v1.0's
        // default is (the 1.2.0 compat layer reads it as non-blocking; docs/peers.md §7).
        Boolean blocking = optionalBoolean(c, "blocking", path);
        out.setReturnImmediately(blocking != null && !blocking);
        ObjectNode push = optionalObject(c, "pushNotificationConfig", path);
        if (push != null) {
            out.setTaskPushNotificationConfig(V03PushConfigs.configToV1(push, path + ".pushNotificationConfig", ""));
        }
        return out.build();
    }

    static GetTaskRequest getTask(JsonNode params) {
        ObjectNode p = object(params, PARAMS);
        GetTaskRequest.Builder out = GetTaskRequest.newBuilder().setId(string(p, "id", PARAMS));
        Integer historyLength = optionalInt(p, "historyLength", PARAMS);
        if (historyLength != null) {
            out.setHistoryLength(historyLength);
        }
        // TaskQueryParams.metadata has no place in v1.0's GetTaskRequest: it is dropped.
        return out.build();
    }

    static CancelTaskRequest cancelTask(JsonNode params) {
        ObjectNode p = object(params, PARAMS);
        CancelTaskRequest.Builder out = CancelTaskRequest.newBuilder().setId(string(p, "id", PARAMS));
        ObjectNode metadata = optionalObject(p, "metadata", PARAMS);
        if (metadata != null) {
            out.setMetadata(StructJson.struct(metadata));
        }
        return out.build();
    }

    static SubscribeToTaskRequest resubscribe(JsonNode params) {
        return SubscribeToTaskRequest.newBuilder().setId(string(object(params, PARAMS), "id", PARAMS)).build();
    }
}
