package legate.a2a.server.v03;

import static legate.a2a.server.v03.V03Input.object;
import static legate.a2a.server.v03.V03Input.optionalObject;
import static legate.a2a.server.v03.V03Input.optionalString;
import static legate.a2a.server.v03.V03Input.string;
import static legate.a2a.server.v03.V03Input.strings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import lf.a2a.v1.AuthenticationInfo;
import lf.a2a.v1.DeleteTaskPushNotificationConfigRequest;
import lf.a2a.v1.GetTaskPushNotificationConfigRequest;
import lf.a2a.v1.ListTaskPushNotificationConfigsRequest;
import lf.a2a.v1.TaskPushNotificationConfig;

/**
 * The v0.3 push notification shapes: {@code {taskId, pushNotificationConfig: {id, url, token,
 * authentication: {schemes, credentials}}}} and the params of the four
 * {@code tasks/pushNotificationConfig/*} methods, against v1.0's one flat
 * TaskPushNotificationConfig and its request messages. Where they differ (docs/peers.md §7):
 * <ul>
 *   <li>v0.3 lists the schemes a webhook accepts, v1.0 names the one the agent uses: the first
 *       is taken, and one scheme goes back out as a list of one;
 *   <li>PEER (@a2a-js/sdk 0.3.14): a config set without an id gets the task's id, and a get
 *       without {@code pushNotificationConfigId} reads that config, the task's default one.
 * </ul>
 */
final class V03PushConfigs {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String PARAMS = "params";

    private V03PushConfigs() {
    }

    /** tasks/pushNotificationConfig/set params (a v0.3 TaskPushNotificationConfig). */
    static TaskPushNotificationConfig setToV1(JsonNode params) {
        ObjectNode p = object(params, PARAMS);
        String taskId = string(p, "taskId", PARAMS);
        return configToV1(object(p.get("pushNotificationConfig"), PARAMS + ".pushNotificationConfig"),
                PARAMS + ".pushNotificationConfig", taskId);
    }

    /** A v0.3 PushNotificationConfig for {@code taskId} (empty: the config inside a message/send). */
    static TaskPushNotificationConfig configToV1(ObjectNode c, String path, String taskId) {
        TaskPushNotificationConfig.Builder out = TaskPushNotificationConfig.newBuilder()
                .setTaskId(taskId).setUrl(string(c, "url", path));
        String id = optionalString(c, "id", path);
        out.setId(id != null && !id.isEmpty() ? id : taskId);
        String token = optionalString(c, "token", path);
        if (token != null) {
            out.setToken(token);
        }
        ObjectNode auth = optionalObject(c, "authentication", path);
        if (auth != null) {
            List<String> schemes = strings(auth, "schemes", path + ".authentication");
            AuthenticationInfo.Builder a = AuthenticationInfo.newBuilder();
            if (!schemes.isEmpty()) {
                a.setScheme(schemes.getFirst());
            }
            String credentials = optionalString(auth, "credentials", path + ".authentication");
            if (credentials != null) {
                a.setCredentials(credentials);
            }
            out.setAuthentication(a);
        }
        return out.build();
    }

    static GetTaskPushNotificationConfigRequest getToV1(JsonNode params) {
        ObjectNode p = object(params, PARAMS);
        String taskId = string(p, "id", PARAMS);
        String configId = optionalString(p, "pushNotificationConfigId", PARAMS);
        return GetTaskPushNotificationConfigRequest.newBuilder().setTaskId(taskId)
                .setId(configId == null || configId.isEmpty() ? taskId : configId).build();
    }

    /** v0.3 has no pages: the first page is asked for, and the method reads on until the last. */
    static ListTaskPushNotificationConfigsRequest listToV1(JsonNode params) {
        return ListTaskPushNotificationConfigsRequest.newBuilder()
                .setTaskId(string(object(params, PARAMS), "id", PARAMS)).build();
    }

    static DeleteTaskPushNotificationConfigRequest deleteToV1(JsonNode params) {
        ObjectNode p = object(params, PARAMS);
        return DeleteTaskPushNotificationConfigRequest.newBuilder().setTaskId(string(p, "id", PARAMS))
                .setId(string(p, "pushNotificationConfigId", PARAMS)).build();
    }

    static ObjectNode toV03(TaskPushNotificationConfig c) {
        ObjectNode config = JSON.objectNode();
        if (!c.getId().isEmpty()) {
            config.put("id", c.getId());
        }
        config.put("url", c.getUrl());
        if (!c.getToken().isEmpty()) {
            config.put("token", c.getToken());
        }
        if (c.hasAuthentication()) {
            ObjectNode auth = config.putObject("authentication");
            ArrayNode schemes = auth.putArray("schemes");
            if (!c.getAuthentication().getScheme().isEmpty()) {
                schemes.add(c.getAuthentication().getScheme());
            }
            if (!c.getAuthentication().getCredentials().isEmpty()) {
                auth.put("credentials", c.getAuthentication().getCredentials());
            }
        }
        ObjectNode out = JSON.objectNode();
        out.put("taskId", c.getTaskId());
        out.set("pushNotificationConfig", config);
        return out;
    }
}
