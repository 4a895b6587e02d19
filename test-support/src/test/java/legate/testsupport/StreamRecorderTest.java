package legate.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
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

/** The recorder's reading of a stream, its bounded waits, and "nothing left over". */
class StreamRecorderTest {
    private static final Duration SHORT = Duration.ofMillis(300);

    private static StreamResponse task(TaskState state) {
        return StreamResponse.newBuilder().setTask(Task.newBuilder().setId("t1").setContextId("c1")
                .setStatus(TaskStatus.newBuilder().setState(state))).build();
    }

    private static StreamResponse status(TaskState state, String text) {
        TaskStatus.Builder s = TaskStatus.newBuilder().setState(state);
        if (text != null) {
            s.setMessage(Message.newBuilder().setRole(Role.ROLE_AGENT).addParts(Part.newBuilder().setText(text)));
        }
        return StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder().setTaskId("t1").setStatus(s)).build();
    }

    private static StreamResponse artifact(String id) {
        return StreamResponse.newBuilder().setArtifactUpdate(TaskArtifactUpdateEvent.newBuilder().setTaskId("t1")
                .setArtifact(Artifact.newBuilder().setArtifactId(id).addParts(Part.newBuilder().setText("out")))).build();
    }

    @Test
    void aStreamReadsAsAClientSeesIt() {
        StreamRecorder r = new StreamRecorder(SHORT);
        r.onEvent(task(TaskState.TASK_STATE_SUBMITTED));
        r.onEvent(status(TaskState.TASK_STATE_WORKING, "step 1"));
        r.onEvent(status(TaskState.TASK_STATE_WORKING, "step 2"));
        r.onEvent(artifact("answer"));
        r.onEvent(status(TaskState.TASK_STATE_COMPLETED, null));
        r.onEnd();

        assertThat(r.awaitEnd().kinds()).containsExactly("task:SUBMITTED", "status:WORKING", "status:WORKING",
                "artifact:answer", "status:COMPLETED");
        assertThat(r.states()).containsExactly(TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED);
        assertThat(r.finalState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(r.said()).containsExactly("step 1", "step 2");
        assertThat(r.lastSaid()).isEmpty();
        assertThat(r.artifacts()).extracting(Artifact::getArtifactId).containsExactly("answer");
        assertThat(r.taskIds()).containsOnly("t1");
        assertThat(r.taskId()).isEqualTo("t1");
        assertThat(r.contextId()).isEqualTo("c1");
        r.assertExhausted();
    }

    @Test
    void eventsFromAnotherThreadAreAwaitedWithoutSleeping() {
        StreamRecorder r = new StreamRecorder(Duration.ofSeconds(10));
        Thread.ofVirtual().start(() -> {
            r.onEvent(task(TaskState.TASK_STATE_SUBMITTED));
            r.onEvent(status(TaskState.TASK_STATE_WORKING, "Thinking: hard"));
            r.onEvent(status(TaskState.TASK_STATE_INPUT_REQUIRED, "which file?"));
            r.onEnd();
        });

        r.awaitSaid("Thinking").awaitState(TaskState.TASK_STATE_INPUT_REQUIRED).awaitEnd().assertExhausted();
        assertThat(r.lastSaid()).isEqualTo("which file?");
    }

    // Rule: a wait is bounded, and its failure says what the stream carried.
    @Test
    void aWaitThatIsNotAnsweredFailsInTimeNamingWhatCame() {
        StreamRecorder r = new StreamRecorder(SHORT);
        r.onEvent(task(TaskState.TASK_STATE_SUBMITTED));

        assertThatThrownBy(() -> r.awaitSaid("never")).isInstanceOf(AssertionError.class)
                .hasMessageContaining("within PT0.3S").hasMessageContaining("task:SUBMITTED");
        assertThatThrownBy(r::awaitEnd).hasMessageContaining("the end of the stream");
    }

    // Rule: nothing left over. An event the test never looked at fails, as does one after the end.
    @Test
    void anEventTheTestNeverSawOrOneAfterTheEndIsLeftOver() {
        StreamRecorder r = new StreamRecorder(SHORT);
        r.onEvent(task(TaskState.TASK_STATE_SUBMITTED));
        r.onEvent(status(TaskState.TASK_STATE_INPUT_REQUIRED, "which file?"));
        r.onEvent(status(TaskState.TASK_STATE_WORKING, "unexpected"));
        r.onEnd();

        r.awaitState(TaskState.TASK_STATE_INPUT_REQUIRED).awaitEnd();
        assertThatThrownBy(r::assertExhausted).hasMessageContaining("never looked at: [status:WORKING]");
        assertThat(r.next()).isEqualTo(status(TaskState.TASK_STATE_WORKING, "unexpected"));
        r.assertExhausted();

        r.onEvent(artifact("late"));
        assertThatThrownBy(r::assertExhausted).hasMessageContaining("after the end of the stream: [artifact:late]");
    }

    @Test
    void aFailedStreamFailsTheWaitForItsEndAndIsReturnedWhenExpected() {
        StreamRecorder r = new StreamRecorder(SHORT);
        r.onFailure(new IllegalStateException("task not found"));

        assertThatThrownBy(r::awaitEnd).hasMessageContaining("task not found");
        assertThat(r.awaitFailure()).hasMessage("task not found");
        assertThatThrownBy(r::taskId).hasMessageContaining("without an event");
    }

    @Test
    void aStreamThatOpensWithAMessageHasNoTaskId() {
        StreamRecorder r = new StreamRecorder(SHORT);
        r.onEvent(StreamResponse.newBuilder().setMessage(Message.newBuilder().setRole(Role.ROLE_AGENT)
                .addParts(Part.newBuilder().setText("hello"))).build());

        assertThat(r.kinds()).containsExactly("message");
        assertThatThrownBy(r::taskId).hasMessageContaining("opened with message, not a Task");
    }
}
