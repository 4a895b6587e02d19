package legate.a2a.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import legate.a2a.model.A2aMethods;
import legate.a2a.server.ServerSecurity;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ownership as a second principal sees it (README "Security"): bob tries every method on alice's
 * tasks and conversation. A foreign task is -32001 exactly as a missing one, ListTasks shows only
 * bob's own, a new message into alice's contextId is refused with -32602, and the executor is never
 * called for any of it; alice's held turn is not canceled by bob's CancelTask.
 */
class OwnershipTest {
    private static final String ALICE = "alice-token-0123456789";
    private static final String BOB = "bob-token-9876543210";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;
    private SecuredAgent agent;

    @BeforeEach
    void start() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "alice:" + ALICE + "\nbob:" + BOB + "\n");
        agent = new SecuredAgent(cleanup, new ServerSecurity(new CallerAuthentication(
                List.of(new BearerTokens(new TokensFile(tokens)))), null, 0));
    }

    @AfterEach
    void release() {
        agent.release();
    }

    @Test
    void aSecondPrincipalFindsNothingOfTheFirstOnesAndRunsNothing() throws Exception {
        JsonNode asked = agent.call(ALICE, A2aMethods.SEND_MESSAGE, SecuredAgent.message("ask", ""));
        String parked = asked.at("/result/task/id").asText();
        String context = asked.at("/result/task/contextId").asText();
        JsonNode holding = agent.call(ALICE, A2aMethods.SEND_MESSAGE, SecuredAgent.message("hold",
                "},\"configuration\":{\"returnImmediately\":true"));
        String held = holding.at("/result/task/id").asText();
        assertThat(held).isNotEmpty();
        int turns = agent.turns.get();

        JsonNode missing = agent.call(BOB, A2aMethods.GET_TASK, "{\"id\":\"no-such-task\"}").get("error");
        for (String id : List.of(parked, held)) {
            JsonNode got = agent.call(BOB, A2aMethods.GET_TASK, "{\"id\":\"" + id + "\"}").get("error");
            // PROTOCOL (A2A §3.3.2): exactly the answer for a task that does not exist, id aside.
            assertThat(got.toString().replace(id, "no-such-task")).isEqualTo(missing.toString());
            assertThat(agent.call(BOB, A2aMethods.CANCEL_TASK, "{\"id\":\"" + id + "\"}").at("/error/code").asInt())
                    .isEqualTo(-32001);
            assertThat(agent.call(BOB, A2aMethods.SUBSCRIBE_TO_TASK, "{\"id\":\"" + id + "\"}").at("/error/code").asInt())
                    .isEqualTo(-32001);
            HttpResponse<String> resumed = agent.post(A2aMethods.SUBSCRIBE_TO_TASK, "{\"id\":\"" + id + "\"}",
                    Map.of("Authorization", "Bearer " + BOB, "Last-Event-ID", "0"));
            assertThat(WireJson.mapper().readTree(resumed.body()).at("/error/code").asInt()).isEqualTo(-32001);
            assertThat(agent.call(BOB, A2aMethods.SEND_MESSAGE,
                    SecuredAgent.message("my answer", ",\"taskId\":\"" + id + "\"")).at("/error/code").asInt())
                    .isEqualTo(-32001);
        }
        JsonNode intoContext = agent.call(BOB, A2aMethods.SEND_MESSAGE,
                SecuredAgent.message("hello", ",\"contextId\":\"" + context + "\"")).get("error");
        assertThat(intoContext.get("code").asInt()).isEqualTo(-32602);
        assertThat(intoContext.get("message").asText()).contains("cannot write into", "leave contextId out");
        JsonNode listed = agent.call(BOB, A2aMethods.LIST_TASKS, "{}").get("result");
        assertThat(listed.get("tasks")).isEmpty();
        assertThat(listed.get("totalSize").asInt()).isZero();
        assertThat(agent.call(BOB, A2aMethods.LIST_TASKS, "{\"contextId\":\"" + context + "\"}").at("/result/totalSize")
                .asInt()).isZero();
        assertThat(agent.turns).as("the executor never ran for bob").hasValue(turns);

        // Alice's tasks are as she left them: the parked one still asks, the held one still works.
        assertThat(agent.call(ALICE, A2aMethods.GET_TASK, "{\"id\":\"" + held + "\"}").at("/result/status/state").asText())
                .isEqualTo("TASK_STATE_WORKING");
        assertThat(agent.call(ALICE, A2aMethods.LIST_TASKS, "{}").at("/result/totalSize").asInt()).isEqualTo(2);
        JsonNode answered = agent.call(ALICE, A2aMethods.SEND_MESSAGE,
                SecuredAgent.message("the blue one", ",\"taskId\":\"" + parked + "\""));
        assertThat(answered.at("/result/task/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
    }

    // A contextId a client picks is claimed by the first principal to use it.
    @Test
    void aConversationNamedFirstByOnePrincipalIsRefusedToAnother() throws Exception {
        JsonNode bobs = agent.call(BOB, A2aMethods.SEND_MESSAGE, SecuredAgent.message("hi", ",\"contextId\":\"bob-chat\""));
        assertThat(bobs.at("/result/task/contextId").asText()).isEqualTo("bob-chat");
        int turns = agent.turns.get();
        assertThat(agent.call(ALICE, A2aMethods.SEND_MESSAGE, SecuredAgent.message("me too", ",\"contextId\":\"bob-chat\""))
                .at("/error/code").asInt()).isEqualTo(-32602);
        assertThat(agent.turns).hasValue(turns);
        assertThat(agent.call(BOB, A2aMethods.SEND_MESSAGE, SecuredAgent.message("again", ",\"contextId\":\"bob-chat\""))
                .at("/result/task/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
    }
}
