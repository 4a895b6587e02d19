package legate.acp.bridge;

import static legate.acp.BridgeFixture.answer;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
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
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.Task;
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
        return bridge(maxTasksPerPrincipal, Duration.ofMinutes(5));
    }

    private BridgeFixture bridge(int maxTasksPerPrincipal, Duration askTimeout) {
        return cleanup.register(new BridgeFixture(FakeAgents.backend(), dir.resolve("sandboxes"), ProcessLauncher.system(),
                PermissionRules.builtIn("default", false, true), BridgeLogs.disabled(), Clock.systemUTC(),
                askTimeout, ConversationRecords.NONE, new InMemoryTaskStore(), 16,
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

    @Test
    void atALimitOfOneTasksWaitingAtQuestionsAreCanceledAtOnceAndLeaveTheirPlacesFree() throws Exception {
        BridgeFixture bridge = bridge(1);
        StreamRecorder first = bridge.send(ctx(), "", "permission edit /etc/hosts").awaitEnd();
        // The first waits at its question and holds no place: a second task starts and asks too.
        StreamRecorder second = bridge.send(ctx(), "", "permission edit /etc/hosts").awaitEnd();
        assertThat(second.finalState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);

        // PROTOCOL (A2A §3.1.5): CancelTask reaches a waiting execution and the task ends CANCELED (it was -32002
        // after 30 s while a refused reply's claim froze the execution).
        for (StreamRecorder asked : List.of(first, second)) {
            Task canceled = bridge.cancel(asked.taskId());
            assertThat(canceled.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        }
        assertThat(bridge.executionsEnded.tryAcquire(2, 30, TimeUnit.SECONDS)).as("both executions ended").isTrue();
        // Nothing is counted any more: a task runs at the limit of one.
        assertThat(answer(bridge.run(ctx(), "echo after"))).isEqualTo("after");
    }

    @Test
    void atALimitOfOneTheAskTimeoutStillFiresForEveryWaitingTaskAndEachCompletes() throws Exception {
        BridgeFixture bridge = bridge(1, Duration.ofMillis(300));
        List<StreamRecorder> asked = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            StreamRecorder r = bridge.send(ctx(), "", "permission edit /etc/hosts").awaitEnd();
            assertThat(r.finalState()).as("task " + i).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
            asked.add(r);
        }
        // No answer: each question times out, the agent gets its own refusal and the turn completes.
        assertThat(bridge.executionsEnded.tryAcquire(2, 30, TimeUnit.SECONDS)).as("both turns went on and ended").isTrue();
        for (StreamRecorder r : asked) {
            Task done = bridge.handler.getTask(GetTaskRequest.newBuilder().setId(r.taskId()).build());
            assertThat(done.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
            assertThat(done.getArtifacts(0).getParts(0).getText()).isEqualTo("permission: selected no");
        }
        // Both took their places back when their questions timed out, and gave them back at the end.
        assertThat(answer(bridge.run(ctx(), "echo after"))).isEqualTo("after");
    }
}
