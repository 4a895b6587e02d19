package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import legate.a2a.model.A2aError;
import legate.testsupport.StreamRecorder;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.ListTasksResponse;
import lf.a2a.v1.Part;
import lf.a2a.v1.SendMessageResponse;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;

/**
 * What {@link A2aClient} must do against any Revisor agent (interop/README.md states the contract):
 * run by {@link A2aClientTest} against Legate's server and by {@link A2aClientInteropTest} against
 * the JavaScript SDK's, so the client is not only proven against itself. The agent pauses between
 * steps, so a cancel or a subscription can land while a task works.
 */
abstract class RevisorContract {
    static final String TEXT = "The quick brown fox jumps over the lazy dog. It was not amused!";

    abstract A2aClient client();

    // PROTOCOL (A2A §3.2.2): a blocking SendMessage answers once the task is terminal, with its artifacts.
    @Test
    void blockingSendAnswersWithTheCompletedTaskAndItsArtifact() {
        SendMessageResponse response = client().send(UserMessage.text(TEXT));

        assertThat(response.hasTask()).isTrue();
        Task task = response.getTask();
        assertThat(task.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(task.getArtifactsList()).extracting(Artifact::getArtifactId).containsExactly("text-stats");
        assertTextStats(task.getArtifacts(0));
    }

    // PROTOCOL (A2A §3.2.2): returnImmediately answers as soon as the task exists, before its turn ends.
    @Test
    void nonBlockingSendAnswersBeforeTheTurnEndsAndTheTaskFinishesLater() {
        Task task = client().sendNonBlocking(UserMessage.text(TEXT)).getTask();

        assertThat(task.getId()).isNotEmpty();
        assertThat(task.getStatus().getState()).isIn(TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING);
        StreamRecorder rest = new StreamRecorder();
        StreamEnd end = client().subscribe(task.getId(), rest::onEvent);
        assertThat(end.lastState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(client().getTask(task.getId()).getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
    }

    // PROTOCOL (A2A §3.1.2): a task stream opens with the Task, then updates in the order they happen.
    @Test
    void streamDeliversTheTaskFirstThenWorkingArtifactAndCompletedInOrder() {
        StreamRecorder events = new StreamRecorder();

        StreamEnd end = client().stream(UserMessage.text(TEXT), events::onEvent);

        assertThat(events.kinds()).containsExactly("task:SUBMITTED", "status:WORKING", "status:WORKING",
                "artifact:text-stats", "status:COMPLETED");
        assertThat(events.taskIds()).containsOnly(events.events().get(0).getTask().getId());
        assertThat(end).isEqualTo(new StreamEnd(StreamEnd.How.TURN_ENDED, 5, TaskState.TASK_STATE_COMPLETED));
        assertTextStats(events.events().get(3).getArtifactUpdate().getArtifact());
    }

    // PROTOCOL (A2A §3.1.3, §3.4): INPUT_REQUIRED keeps the task open; a reply naming it continues it,
    // and GetTask shows the task outliving both calls.
    @Test
    void aReplyToInputRequiredContinuesTheSameTaskWhichGetTaskStillShows() {
        StreamRecorder turn1 = new StreamRecorder();
        StreamEnd end1 = client().stream(UserMessage.text(""), turn1::onEvent);
        assertThat(turn1.kinds()).containsExactly("task:SUBMITTED", "status:INPUT_REQUIRED");
        assertThat(end1.how()).isEqualTo(StreamEnd.How.TURN_ENDED);
        Task first = turn1.events().get(0).getTask();

        StreamRecorder turn2 = new StreamRecorder();
        client().stream(UserMessage.text(TEXT, first.getId(), first.getContextId()), turn2::onEvent);

        assertThat(turn2.taskIds()).containsOnly(first.getId());
        assertThat(turn2.kinds()).endsWith("status:WORKING", "artifact:text-stats", "status:COMPLETED");
        Task stored = client().getTask(first.getId());
        assertThat(stored.getContextId()).isEqualTo(first.getContextId());
        assertThat(stored.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(stored.getArtifactsCount()).isEqualTo(1);
        assertThat(stored.getHistoryList()).extracting(m -> m.getParts(0).getText()).contains(TEXT);
    }

    // PROTOCOL (A2A §3.1.5): a cancel while the task works ends it CANCELED, on the stream and in the store.
    @Test
    void cancelWhileWorkingEndsTheTaskCanceled() {
        AtomicReference<Task> canceled = new AtomicReference<>();
        StreamRecorder events = new StreamRecorder();

        StreamEnd end = client().stream(UserMessage.text(TEXT), event -> {
            events.onEvent(event);
            if (event.hasStatusUpdate() && canceled.get() == null
                    && event.getStatusUpdate().getStatus().getState() == TaskState.TASK_STATE_WORKING) {
                canceled.set(client().cancelTask(event.getStatusUpdate().getTaskId()));
            }
            return true;
        });

        assertThat(canceled.get().getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        assertThat(end.lastState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        assertThat(events.kinds()).doesNotContain("artifact:text-stats", "status:COMPLETED");
        assertThat(client().getTask(canceled.get().getId()).getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
    }

    // PROTOCOL (A2A §3.1.4): ListTasks filters by contextId; nextPageToken is "" on the last page.
    @Test
    void listTasksReturnsTheTasksOfOneContext() {
        String context = "ctx-" + UUID.randomUUID();
        Task a = client().send(UserMessage.text("", null, context)).getTask();
        Task b = client().send(UserMessage.text("", null, context)).getTask();
        client().send(UserMessage.text(""));

        ListTasksResponse page = client().listTasks(ListTasksRequest.newBuilder().setContextId(context).build());

        assertThat(page.getTasksList()).extracting(Task::getId).containsExactlyInAnyOrder(a.getId(), b.getId());
        assertThat(page.getTotalSize()).isEqualTo(2);
        assertThat(page.getNextPageToken()).isEmpty();
    }

    // PROTOCOL (A2A §3.1.6): a subscription opens with a snapshot of the task, then its live events.
    @Test
    void subscribeOpensWithASnapshotThenFollowsTheTaskToTheEnd() {
        Task task = client().sendNonBlocking(UserMessage.text(TEXT)).getTask();
        StreamRecorder events = new StreamRecorder();

        StreamEnd end = client().subscribe(task.getId(), events::onEvent);

        StreamResponse first = events.events().get(0);
        assertThat(first.hasTask()).isTrue();
        assertThat(first.getTask().getId()).isEqualTo(task.getId());
        assertThat(events.kinds()).endsWith("artifact:text-stats", "status:COMPLETED");
        assertThat(end.how()).isEqualTo(StreamEnd.How.TURN_ENDED);
    }

    // PROTOCOL (A2A §3.3.2, §9.5): an unknown task is -32001 with the ErrorInfo reason TASK_NOT_FOUND.
    @Test
    void unknownTaskIsATypedErrorWithCodeAndReason() {
        assertThatThrownBy(() -> client().getTask("no-such-task"))
                .isInstanceOfSatisfying(AgentErrorException.class, e -> {
                    assertThat(e.code()).isEqualTo(-32001);
                    assertThat(e.reason()).isEqualTo("TASK_NOT_FOUND");
                    assertThat(e.error()).contains(A2aError.TASK_NOT_FOUND);
                    assertThat(e.errorInfo().orElseThrow().domain()).isEqualTo(A2aError.DOMAIN);
                    assertThat(e.getMessage()).startsWith("TASK_NOT_FOUND (-32001): ").contains("no-such-task");
                });
    }

    // PROTOCOL (A2A §3.1.1): a terminal task takes no more messages (-32004). PEER (@a2a-js/sdk
    // 1.2.0): on a stream the error comes as a plain JSON body, not as SSE.
    @Test
    void aMessageToACompletedTaskIsRefusedOnBothSendAndStream() {
        Task done = client().send(UserMessage.text(TEXT)).getTask();
        lf.a2a.v1.Message again = UserMessage.text(TEXT, done.getId(), null);

        assertThatThrownBy(() -> client().send(again))
                .isInstanceOfSatisfying(AgentErrorException.class, e -> assertThat(e.reason()).isEqualTo("UNSUPPORTED_OPERATION"));
        StreamRecorder none = new StreamRecorder();
        assertThatThrownBy(() -> client().stream(again, none::onEvent))
                .isInstanceOfSatisfying(AgentErrorException.class, e -> assertThat(e.code()).isEqualTo(-32004));
        assertThat(none.events()).isEmpty();
    }

    // PROTOCOL (A2A §3.1.5): a completed task cannot be canceled (-32002).
    @Test
    void cancelOfACompletedTaskIsNotCancelable() {
        Task done = client().send(UserMessage.text(TEXT)).getTask();

        assertThatThrownBy(() -> client().cancelTask(done.getId()))
                .isInstanceOfSatisfying(AgentErrorException.class, e -> {
                    assertThat(e.code()).isEqualTo(-32002);
                    assertThat(e.reason()).isEqualTo("TASK_NOT_CANCELABLE");
                });
    }

    // A Revisor artifact: the summary text part and the statistics as a data part.
    private static void assertTextStats(Artifact artifact) {
        assertThat(artifact.getPartsList()).extracting(Part::getContentCase)
                .containsExactly(Part.ContentCase.TEXT, Part.ContentCase.DATA);
        assertThat(artifact.getParts(0).getText()).isEqualTo("Words: 13, characters: 63, sentences: 2.");
        assertThat(artifact.getParts(1).getData().getStructValue().getFieldsOrThrow("words").getNumberValue()).isEqualTo(13);
    }
}
