package legate.a2a.server.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import legate.a2a.model.A2aException;
import legate.a2a.server.Principal;
import legate.a2a.server.task.RequestHandler;
import legate.testsupport.Cleanup;
import lf.a2a.v1.DeleteTaskPushNotificationConfigRequest;
import lf.a2a.v1.GetTaskPushNotificationConfigRequest;
import lf.a2a.v1.ListTaskPushNotificationConfigsRequest;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageConfiguration;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.TaskPushNotificationConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The four configuration methods over JSON-RPC (A2A §3.1.7-3.1.10, digest of the JS SDK's answers),
 * the card's capability, the JWKS, and ownership through the request handler (README "Ownership").
 */
class PushConfigMethodsTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private PushAgent agent() throws Exception {
        return new PushAgent(cleanup, PushSettings.DEFAULT.withAllowed(AllowedHosts.parse("127.0.0.1")));
    }

    @Test
    void theCardDeclaresPushAndTheJwksHoldsTheSigningKey() throws Exception {
        PushAgent agent = agent();
        // PROTOCOL (A2A §3.3.4): with the capability, the methods are served instead of -32003.
        assertThat(agent.get("/.well-known/agent-card.json").get("capabilities").get("pushNotifications").asBoolean())
                .isTrue();
        JsonNode keys = agent.get("/.well-known/jwks.json").get("keys");
        assertThat(keys).hasSize(1);
        assertThat(keys.get(0).get("kid").asText()).isEqualTo(agent.server.push().publicJwk().getKeyID());
        assertThat(keys.get(0).has("d")).as("never the private half").isFalse();
    }

    @Test
    void createGetListAndDeleteAsTheSpecDefinesThem() throws Exception {
        PushAgent agent = agent();
        String taskId = PushAgent.taskId(agent.send("ask", null, false));
        for (int i = 1; i <= 3; i++) {
            JsonNode c = agent.call("CreateTaskPushNotificationConfig", "{\"taskId\":\"" + taskId + "\",\"id\":\"w" + i
                    + "\",\"url\":\"https://127.0.0.1/h" + i + "\",\"authentication\":{\"scheme\":\"Bearer\","
                    + "\"credentials\":\"c" + i + "\"}}").get("result");
            assertThat(c.get("id").asText()).isEqualTo("w" + i);
        }
        JsonNode got = agent.call("GetTaskPushNotificationConfig", "{\"taskId\":\"" + taskId + "\",\"id\":\"w2\"}")
                .get("result");
        assertThat(got.get("url").asText()).isEqualTo("https://127.0.0.1/h2");
        assertThat(got.get("authentication").get("credentials").asText()).isEqualTo("c2");

        JsonNode page = agent.call("ListTaskPushNotificationConfigs", "{\"taskId\":\"" + taskId + "\",\"pageSize\":2}")
                .get("result");
        assertThat(page.get("configs").findValuesAsText("id")).containsExactly("w1", "w2");
        JsonNode rest = agent.call("ListTaskPushNotificationConfigs", "{\"taskId\":\"" + taskId + "\",\"pageToken\":\""
                + page.get("nextPageToken").asText() + "\"}").get("result");
        assertThat(rest.get("configs").findValuesAsText("id")).containsExactly("w3");
        assertThat(rest.has("nextPageToken")).isFalse();

        // PEER (@a2a-js/sdk 1.2.0): delete is idempotent, an unknown id included.
        for (String id : new String[] {"w2", "w2", "never"}) {
            JsonNode d = agent.call("DeleteTaskPushNotificationConfig", "{\"taskId\":\"" + taskId + "\",\"id\":\"" + id + "\"}");
            assertThat(d.get("result").isNull()).isTrue();
        }
        assertThat(agent.call("ListTaskPushNotificationConfigs", "{\"taskId\":\"" + taskId + "\"}").get("result")
                .get("configs").findValuesAsText("id")).containsExactly("w1", "w3");
        assertThat(agent.call("GetTaskPushNotificationConfig", "{\"taskId\":\"" + taskId + "\",\"id\":\"w2\"}")
                .get("error").get("code").asInt()).isEqualTo(-32001);
    }

    @Test
    void aRefusedUrlIsInvalidParamsNamingTheRuleAndLeavesNoTaskBehind() throws Exception {
        PushAgent agent = agent();
        String taskId = PushAgent.taskId(agent.send("ask", null, false));
        JsonNode refused = agent.call("CreateTaskPushNotificationConfig", "{\"taskId\":\"" + taskId
                + "\",\"url\":\"https://169.254.169.254/latest/meta-data\"}").get("error");
        assertThat(refused.get("code").asInt()).isEqualTo(-32602);
        assertThat(refused.get("message").asText()).contains("\"public address\"").contains("link-local");

        JsonNode inline = agent.send("steps 1", "{\"url\":\"https://user:pw@example.com/\"}", false).get("error");
        assertThat(inline.get("code").asInt()).isEqualTo(-32602);
        assertThat(inline.get("message").asText()).contains("\"no credentials\"").doesNotContain("pw");
        assertThat(agent.call("ListTasks", "{}").get("result").get("tasks")).as("only the first task").hasSize(1);

        JsonNode noUrl = agent.call("CreateTaskPushNotificationConfig", "{\"taskId\":\"" + taskId + "\"}").get("error");
        assertThat(noUrl.get("code").asInt()).isEqualTo(-32602);
        JsonNode badScheme = agent.call("CreateTaskPushNotificationConfig", "{\"taskId\":\"" + taskId
                + "\",\"url\":\"https://127.0.0.1/\",\"authentication\":{\"scheme\":\"Bearer x\\r\\nX: y\"}}").get("error");
        assertThat(badScheme.get("code").asInt()).isEqualTo(-32602);
        JsonNode unknownTask = agent.call("CreateTaskPushNotificationConfig",
                "{\"taskId\":\"nope\",\"url\":\"https://127.0.0.1/\"}").get("error");
        assertThat(unknownTask.get("code").asInt()).isEqualTo(-32001);
    }

    @Test
    void anotherPrincipalsTaskIsNotFoundForEveryMethod() throws Exception {
        RequestHandler h = agent().server.handler();
        Principal alice = new Principal.Named("alice");
        Principal bob = new Principal.Named("bob");
        String taskId = h.sendMessage(SendMessageRequest.newBuilder()
                .setMessage(Message.newBuilder().setMessageId("m1").setRole(Role.ROLE_USER)
                        .addParts(Part.newBuilder().setText("ask")))
                .setConfiguration(SendMessageConfiguration.newBuilder().setTaskPushNotificationConfig(
                        TaskPushNotificationConfig.newBuilder().setId("w").setUrl("https://127.0.0.1/a")))
                .build(), alice).getTask().getId();
        assertThat(h.getPushConfig(GetTaskPushNotificationConfigRequest.newBuilder().setTaskId(taskId).setId("w")
                .build(), alice).getUrl()).isEqualTo("https://127.0.0.1/a");

        // PROTOCOL (A2A §3.3.2): a foreign task is answered exactly as a missing one.
        assertThatThrownBy(() -> h.getPushConfig(GetTaskPushNotificationConfigRequest.newBuilder().setTaskId(taskId)
                .setId("w").build(), bob)).isInstanceOf(A2aException.class).hasMessage("Task not found: " + taskId);
        assertThatThrownBy(() -> h.listPushConfigs(ListTaskPushNotificationConfigsRequest.newBuilder()
                .setTaskId(taskId).build(), bob)).hasMessage("Task not found: " + taskId);
        assertThatThrownBy(() -> h.createPushConfig(TaskPushNotificationConfig.newBuilder().setTaskId(taskId)
                .setUrl("https://127.0.0.1/bob").build(), bob)).hasMessage("Task not found: " + taskId);
        assertThatThrownBy(() -> h.deletePushConfig(DeleteTaskPushNotificationConfigRequest.newBuilder()
                .setTaskId(taskId).setId("w").build(), bob)).hasMessage("Task not found: " + taskId);
        assertThat(h.listPushConfigs(ListTaskPushNotificationConfigsRequest.newBuilder().setTaskId(taskId).build(),
                alice).getConfigsCount()).as("bob's delete touched nothing").isEqualTo(1);
    }
}
