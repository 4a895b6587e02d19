package legate.a2a.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import legate.a2a.model.A2aMethods;
import legate.a2a.server.ServerSecurity;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * MAX_TASKS_PER_PRINCIPAL with a slow executor (README "Security", limits): a caller with as many
 * tasks running as it may is refused at once with -32004, no task created and nothing run; another
 * caller is not; a task parked in INPUT_REQUIRED does not count; a finished one frees its place.
 */
class RunningTaskLimitTest {
    private static final String ALICE = "alice-token-0123456789";
    private static final String BOB = "bob-token-9876543210";
    private static final String HOLD = SecuredAgent.message("hold", "},\"configuration\":{\"returnImmediately\":true");

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;
    private SecuredAgent agent;

    @BeforeEach
    void start() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "alice:" + ALICE + "\nbob:" + BOB + "\n");
        agent = new SecuredAgent(cleanup, new ServerSecurity(new CallerAuthentication(
                List.of(new BearerTokens(new TokensFile(tokens)))), null, 2));
    }

    @AfterEach
    void release() {
        agent.release();
    }

    @Test
    void aCallerOverTheLimitIsRefusedAtOnceAndOthersAreNot() throws Exception {
        assertThat(agent.call(ALICE, A2aMethods.SEND_MESSAGE, SecuredAgent.message("ask", ""))
                .at("/result/task/status/state").asText()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
        String first = agent.call(ALICE, A2aMethods.SEND_MESSAGE, HOLD).at("/result/task/id").asText();
        String second = agent.call(ALICE, A2aMethods.SEND_MESSAGE, HOLD).at("/result/task/id").asText();
        assertThat(first).isNotEmpty();
        assertThat(second).isNotEmpty();
        int turns = agent.turns.get();

        JsonNode refused = agent.call(ALICE, A2aMethods.SEND_MESSAGE, HOLD).get("error");
        assertThat(refused.get("code").asInt()).isEqualTo(-32004);
        assertThat(refused.get("message").asText()).contains("alice already has 2 tasks running");
        assertThat(agent.call(ALICE, A2aMethods.SEND_STREAMING_MESSAGE, HOLD).at("/error/code").asInt()).isEqualTo(-32004);
        assertThat(agent.turns).hasValue(turns);
        assertThat(agent.call(ALICE, A2aMethods.LIST_TASKS, "{}").at("/result/totalSize").asInt()).isEqualTo(3);

        assertThat(agent.call(BOB, A2aMethods.SEND_MESSAGE, SecuredAgent.message("quick", ""))
                .at("/result/task/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");

        agent.release();
        assertThat(sendOnceAPlaceIsFree().at("/result/task/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
    }

    // DEFECT (issue 30): a turn gave its place back only once its executor had returned, a moment
    // (or, for an executor that tidies up after its last event, much) later than the caller heard
    // COMPLETED; a caller at the limit who read the end and sent again was refused -32004.
    @Test
    void aTaskThatHasEndedHoldsNoPlaceEvenBeforeItsExecutorReturns() throws Exception {
        String linger = SecuredAgent.message("linger", "},\"configuration\":{\"returnImmediately\":true");
        List<String> ids = List.of(agent.call(ALICE, A2aMethods.SEND_MESSAGE, linger).at("/result/task/id").asText(),
                agent.call(ALICE, A2aMethods.SEND_MESSAGE, linger).at("/result/task/id").asText());
        for (String id : ids) {
            Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
            String state = "";
            while (!state.equals("TASK_STATE_COMPLETED") && Instant.now().isBefore(deadline)) {
                state = agent.call(ALICE, A2aMethods.GET_TASK, "{\"id\":\"" + id + "\"}").at("/result/status/state").asText();
            }
            assertThat(state).as("task " + id).isEqualTo("TASK_STATE_COMPLETED");
        }
        // Both executors still wait at the latch; both tasks have ended for the caller.
        assertThat(agent.call(ALICE, A2aMethods.SEND_MESSAGE, SecuredAgent.message("quick", ""))
                .at("/result/task/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
    }

    /**
     * Sends until the answer is not the limit's refusal, for at most 10 s: a turn gives its place
     * back when its executor has returned, a moment after its last event reached the caller.
     */
    private JsonNode sendOnceAPlaceIsFree() throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
        while (Instant.now().isBefore(deadline)) {
            JsonNode answer = agent.call(ALICE, A2aMethods.SEND_MESSAGE, SecuredAgent.message("quick", ""));
            if (answer.at("/error/code").asInt() != -32004) {
                return answer;
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("no place was freed within 10 s of the held tasks' release");
    }
}
