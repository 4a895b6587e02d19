package legate.a2a.server.task;

import static lf.a2a.v1.TaskState.TASK_STATE_AUTH_REQUIRED;
import static lf.a2a.v1.TaskState.TASK_STATE_COMPLETED;
import static lf.a2a.v1.TaskState.TASK_STATE_INPUT_REQUIRED;
import static lf.a2a.v1.TaskState.TASK_STATE_SUBMITTED;
import static lf.a2a.v1.TaskState.TASK_STATE_WORKING;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskArtifactUpdateEvent;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import lf.a2a.v1.TaskStatusUpdateEvent;
import org.junit.jupiter.api.Test;

/**
 * Where a resumed stream stops, read from the log alone: it replays what the stream it resumes
 * would still have carried, and closes where that stream would have closed (after a terminal or
 * INPUT_REQUIRED event; PEER @a2a-js/sdk 1.2.0, and the README's "Tasks that last").
 */
class ReplayTest {
    private static LoggedEvent task(long seq, TaskState state) {
        return new LoggedEvent(seq, StreamResponse.newBuilder().setTask(Task.newBuilder().setId("t").setContextId("c")
                .setStatus(TaskStatus.newBuilder().setState(state))).build());
    }

    private static LoggedEvent status(long seq, TaskState state) {
        return new LoggedEvent(seq, StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setTaskId("t").setContextId("c").setStatus(TaskStatus.newBuilder().setState(state))).build());
    }

    private static LoggedEvent artifact(long seq) {
        return new LoggedEvent(seq, StreamResponse.newBuilder().setArtifactUpdate(TaskArtifactUpdateEvent.newBuilder()
                .setTaskId("t").setContextId("c").setArtifact(Artifact.newBuilder().setArtifactId("a"))).build());
    }

    private static List<Long> seqs(Replay r) {
        return r.events().stream().map(LoggedEvent::seq).toList();
    }

    // Two turns: the first asks for input, a reply starts the second, which completes.
    private static final List<LoggedEvent> TWO_TURNS = List.of(task(1, TASK_STATE_SUBMITTED),
            status(2, TASK_STATE_WORKING), status(3, TASK_STATE_INPUT_REQUIRED), task(4, TASK_STATE_INPUT_REQUIRED),
            status(5, TASK_STATE_WORKING), artifact(6), status(7, TASK_STATE_COMPLETED));

    @Test
    void aStreamCutInTheFirstTurnEndsWithItsInputRequired() {
        Replay r = Replay.of(1, TWO_TURNS.subList(0, 7));
        assertThat(seqs(r)).containsExactly(2L, 3L);
        assertThat(r.closes()).isTrue();
    }

    @Test
    void aClientThatSawTheQuestionGetsTheNextTurnFromItsRestatedTask() {
        // The continuation's Task still shows INPUT_REQUIRED: it opens the turn, it does not close the stream.
        Replay r = Replay.of(3, TWO_TURNS.subList(2, 7));
        assertThat(seqs(r)).containsExactly(4L, 5L, 6L, 7L);
        assertThat(r.closes()).isTrue();
    }

    @Test
    void aReplayThatReachesTheLatestEventOfARunningTurnStaysOpen() {
        Replay r = Replay.of(3, TWO_TURNS.subList(2, 5));
        assertThat(seqs(r)).containsExactly(4L, 5L);
        assertThat(r.closes()).isFalse();
        assertThat(Replay.of(5, TWO_TURNS.subList(4, 5)).events()).isEmpty();
    }

    @Test
    void zeroReplaysTheWholeFirstTurn() {
        Replay r = Replay.of(0, TWO_TURNS);
        assertThat(seqs(r)).containsExactly(1L, 2L, 3L);
        assertThat(r.closes()).isTrue();
    }

    @Test
    void aTurnThatEndedInAuthRequiredStopsBeforeTheNextTurn() {
        // PROTOCOL (A2A §7.6.1): AUTH_REQUIRED keeps a stream open, but only as long as its turn runs.
        List<LoggedEvent> log = List.of(task(1, TASK_STATE_SUBMITTED), status(2, TASK_STATE_WORKING),
                status(3, TASK_STATE_AUTH_REQUIRED), task(4, TASK_STATE_AUTH_REQUIRED), status(5, TASK_STATE_WORKING));
        Replay r = Replay.of(2, log.subList(1, 5));
        assertThat(seqs(r)).containsExactly(3L);
        assertThat(r.closes()).isTrue();
    }

    @Test
    void anArtifactNeitherChangesTheStateNorClosesTheStream() {
        List<LoggedEvent> log = List.of(task(1, TASK_STATE_SUBMITTED), artifact(2), status(3, TASK_STATE_COMPLETED));
        Replay r = Replay.of(1, log);
        assertThat(seqs(r)).containsExactly(2L, 3L);
        assertThat(r.closes()).isTrue();
    }
}
