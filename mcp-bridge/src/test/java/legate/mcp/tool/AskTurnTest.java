package legate.mcp.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import legate.a2a.client.StreamEnd;
import legate.a2a.client.TransportException;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskArtifactUpdateEvent;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import lf.a2a.v1.TaskStatusUpdateEvent;
import org.junit.jupiter.api.Test;

/** How a turn's events and its end become one of the four outcomes, as the a2a_ask result reports them. */
class AskTurnTest {
    private final AskTurn turn = new AskTurn("coder", null, null);

    @Test
    void aTerminalTaskIsOutcomeTaskAndAnErrorOnlyWhenItDidNotComplete() {
        turn.accept(task(TaskState.TASK_STATE_SUBMITTED));
        turn.accept(status(TaskState.TASK_STATE_FAILED, "the build broke"));
        TaskReport failed = turn.finish(end(StreamEnd.How.TURN_ENDED, TaskState.TASK_STATE_FAILED));

        assertThat(failed.outcome()).isEqualTo(Outcome.TASK);
        assertThat(failed.isError()).isTrue();
        assertThat(failed.answer()).isEqualTo("the build broke");

        AskTurn ok = new AskTurn("coder", null, null);
        ok.accept(task(TaskState.TASK_STATE_SUBMITTED));
        ok.accept(status(TaskState.TASK_STATE_COMPLETED, null));
        assertThat(ok.finish(end(StreamEnd.How.TURN_ENDED, TaskState.TASK_STATE_COMPLETED)).isError()).isFalse();
    }

    @Test
    void aMessageAnswerIsOutcomeMessage() {
        turn.accept(StreamResponse.newBuilder().setMessage(agentSays("hello").toBuilder().setContextId("ctx-1")).build());
        TaskReport report = turn.finish(end(StreamEnd.How.MESSAGE, TaskState.TASK_STATE_UNSPECIFIED));

        assertThat(report.outcome()).isEqualTo(Outcome.MESSAGE);
        assertThat(report.answer()).isEqualTo("hello");
        assertThat(report.contextId()).isEqualTo("ctx-1");
        assertThat(report.isError()).isFalse();
    }

    // PROTOCOL (A2A §3.1.3): INPUT_REQUIRED and AUTH_REQUIRED end the turn without ending the task.
    @Test
    void anInterruptedTaskIsNotAnErrorAndSaysToReplyIntoItsTaskId() {
        turn.accept(task(TaskState.TASK_STATE_SUBMITTED));
        turn.accept(status(TaskState.TASK_STATE_AUTH_REQUIRED, "sign in first"));
        TaskReport report = turn.finish(end(StreamEnd.How.STOPPED, TaskState.TASK_STATE_AUTH_REQUIRED));

        assertThat(report.outcome()).isEqualTo(Outcome.INTERRUPTED);
        assertThat(report.isError()).isFalse();
        assertThat(report.note()).contains("taskId task-1").contains("credentials");
    }

    // A continuation's stream opens with the stored task still INPUT_REQUIRED; a stream cut right
    // after it is not the agent asking again.
    @Test
    void aContinuationCutAfterItsSnapshotIsTruncatedNotInterrupted() {
        AskTurn reply = new AskTurn("coder", "task-1", null);
        reply.accept(task(TaskState.TASK_STATE_INPUT_REQUIRED));
        TaskReport report = reply.finish(end(StreamEnd.How.CLOSED_EARLY, TaskState.TASK_STATE_INPUT_REQUIRED));

        assertThat(report.outcome()).isEqualTo(Outcome.TRUNCATED);
        assertThat(report.isError()).isTrue();
        assertThat(report.note()).contains("a2a_task").contains("task-1").contains("ctx-1");
    }

    // The latest status message explains refusals and failures; an update without one keeps it.
    @Test
    void theLatestStatusMessageIsKeptThroughTheTurn() {
        turn.accept(task(TaskState.TASK_STATE_SUBMITTED));
        turn.accept(status(TaskState.TASK_STATE_WORKING, "not allowed to write outside the sandbox"));
        turn.accept(status(TaskState.TASK_STATE_REJECTED, null));
        TaskReport report = turn.finish(end(StreamEnd.How.TURN_ENDED, TaskState.TASK_STATE_REJECTED));

        assertThat(report.statusMessage().getParts(0).getText()).isEqualTo("not allowed to write outside the sandbox");
        assertThat(report.structured()).containsKey("statusMessage");
    }

    @Test
    void theFirstProgressLineCarriesTheIdsInFullAndArtifactsAreReported() {
        String first = turn.accept(task(TaskState.TASK_STATE_SUBMITTED));
        String second = turn.accept(StreamResponse.newBuilder().setArtifactUpdate(TaskArtifactUpdateEvent.newBuilder()
                .setTaskId("task-1").setContextId("ctx-1").setArtifact(Artifact.newBuilder().setArtifactId("diff")
                        .addParts(Part.newBuilder().setText("+1 line")))).build());

        assertThat(first).contains("task task-1").contains("context ctx-1").contains("agent coder");
        assertThat(second).isEqualTo("artifact diff");
        assertThat(turn.finish(end(StreamEnd.How.CLOSED_EARLY, TaskState.TASK_STATE_SUBMITTED)).artifacts())
                .extracting(Artifact::getArtifactId).containsExactly("diff");
    }

    @Test
    void aStreamThatFailsBeforeAnyEventIsAPlainErrorAndAfterOneATruncatedTurn() {
        TransportException broke = new TransportException(TransportException.Kind.CUT, URI.create("http://x/"), "reset", null);
        assertThatThrownBy(() -> turn.fail(broke)).isInstanceOf(ToolFailure.class).hasMessageContaining("reset");

        turn.accept(task(TaskState.TASK_STATE_WORKING));
        TaskReport report = turn.fail(broke);
        assertThat(report.outcome()).isEqualTo(Outcome.TRUNCATED);
        assertThat(report.taskId()).isEqualTo("task-1");
    }

    private static StreamResponse task(TaskState state) {
        return StreamResponse.newBuilder().setTask(Task.newBuilder().setId("task-1").setContextId("ctx-1")
                .setStatus(TaskStatus.newBuilder().setState(state))).build();
    }

    private static StreamResponse status(TaskState state, String said) {
        TaskStatus.Builder s = TaskStatus.newBuilder().setState(state);
        if (said != null) {
            s.setMessage(agentSays(said));
        }
        return StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setTaskId("task-1").setContextId("ctx-1").setStatus(s)).build();
    }

    private static Message agentSays(String text) {
        return Message.newBuilder().setMessageId("m").setRole(Role.ROLE_AGENT).addParts(Part.newBuilder().setText(text)).build();
    }

    private static StreamEnd end(StreamEnd.How how, TaskState last) {
        return new StreamEnd(how, 1, last);
    }
}
