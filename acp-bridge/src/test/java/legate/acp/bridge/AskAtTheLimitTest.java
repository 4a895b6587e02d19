package legate.acp.bridge;

import static legate.acp.BridgeFixture.answer;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.acp.BridgeFixture;
import legate.acp.FakeAgents;
import legate.acp.adapter.ConversationRecords;
import legate.acp.connection.ProcessLauncher;
import legate.acp.log.BridgeLogs;
import legate.acp.log.BridgeTelemetry;
import legate.acp.permission.PermissionRules;
import legate.testsupport.Cleanup;
import legate.testsupport.StreamRecorder;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * ACP_PERMISSIONS=ask under MAX_TASKS_PER_PRINCIPAL, end to end with FakeAcpAgent as a real child.
 * DEFECT (issue 30, defect 2): a turn waiting at a permission question kept its caller's place; the
 * reply sent at the limit was refused with -32004 after it had been taken, and the turn never woke
 * (no ask timeout, CancelTask -32002, the agent process held until SIGTERM). README "Asking the
 * caller": a task waiting for an answer does not count, and the answer is never refused by the limit.
 */
class AskAtTheLimitTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    private BridgeFixture bridge(int maxTasksPerPrincipal) {
        return cleanup.register(new BridgeFixture(FakeAgents.backend(), dir.resolve("sandboxes"), ProcessLauncher.system(),
                PermissionRules.builtIn("default", false, true), BridgeLogs.disabled(), Clock.systemUTC(),
                Duration.ofMinutes(5), ConversationRecords.NONE, new InMemoryTaskStore(), 16,
                BridgeTelemetry.none("fake"), maxTasksPerPrincipal));
    }

    private static String ctx() {
        return UUID.randomUUID().toString();
    }

    @Test
    void atALimitOfOneTheAnswerToTheOnlyQuestionIsTakenAndTheTaskCompletes() throws Exception {
        BridgeFixture bridge = bridge(1);
        String c = ctx();
        StreamRecorder asked = bridge.send(c, "", "permission edit /etc/hosts").awaitEnd();
        assertThat(asked.finalState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);

        // It threw -32004 here, the reply already taken from the waiting turn.
        StreamRecorder answered = bridge.send(c, asked.taskId(), "yes").awaitEnd();
        assertThat(answered.finalState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(answer(answered)).isEqualTo("permission: selected yes");
        // The place is free again once the turn ended: the next task runs.
        assertThat(answer(bridge.run(c, "echo after"))).isEqualTo("after");
    }

    @Test
    void fourTasksAskingAtTheBridgesDefaultLimitAreAllAnsweredAndAFifthTaskRunsMeanwhile() throws Exception {
        BridgeFixture bridge = bridge(4);
        List<StreamRecorder> asked = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            StreamRecorder r = bridge.send(ctx(), "", "permission edit /etc/hosts").awaitEnd();
            assertThat(r.finalState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
            asked.add(r);
        }
        // Tasks waiting for an answer hold no place: a fifth runs while all four wait.
        assertThat(answer(bridge.run(ctx(), "echo meanwhile"))).isEqualTo("meanwhile");
        for (StreamRecorder r : asked) {
            StreamRecorder answered = bridge.send(r.contextId(), r.taskId(), "no").awaitEnd();
            assertThat(answered.finalState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
            assertThat(answer(answered)).isEqualTo("permission: selected no");
        }
    }
}
