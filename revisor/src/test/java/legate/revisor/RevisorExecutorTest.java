package legate.revisor;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Struct;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.RequestHandler;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageConfiguration;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Revisor's turn as a client sees it through the request handler: ask, resume, report, cancel. */
class RevisorExecutorTest {
    private final ExecutorService turns = Executors.newVirtualThreadPerTaskExecutor();

    @AfterEach
    void stop() {
        turns.shutdownNow();
    }

    private RequestHandler handler(Duration stepDelay) {
        return new RequestHandler(new RevisorExecutor(stepDelay), new InMemoryTaskStore(),
                RevisorCard.build(null, "http://127.0.0.1:1/"), Clock.systemUTC(),
                () -> java.util.UUID.randomUUID().toString(), Duration.ofSeconds(5), turns);
    }

    private static SendMessageRequest send(String taskId, Part... parts) {
        Message.Builder m = Message.newBuilder().setMessageId(java.util.UUID.randomUUID().toString())
                .setRole(Role.ROLE_USER).setTaskId(taskId);
        for (Part p : parts) {
            m.addParts(p);
        }
        return SendMessageRequest.newBuilder().setMessage(m).build();
    }

    @Test
    void withoutTextItAsksForSomeAndAReplyIntoTheSameTaskCompletesIt() {
        RequestHandler h = handler(Duration.ZERO);
        Task parked = h.sendMessage(send("", Part.newBuilder().setData(
                com.google.protobuf.Value.newBuilder().setStructValue(Struct.getDefaultInstance())).build())).getTask();
        assertThat(parked.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        assertThat(parked.getStatus().getMessage().getRole()).isEqualTo(Role.ROLE_AGENT);
        assertThat(parked.getStatus().getMessage().getParts(0).getText()).contains("text");

        Task done = h.sendMessage(send(parked.getId(), Part.newBuilder().setText("The quick brown fox. It jumps!").build()))
                .getTask();
        assertThat(done.getId()).isEqualTo(parked.getId());
        assertThat(done.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(done.getArtifactsList()).singleElement().satisfies(a -> {
            assertThat(a.getArtifactId()).isEqualTo("text-stats");
            assertThat(a.getParts(0).getText()).isEqualTo("Words: 6, characters: 30, sentences: 2.");
            Struct data = a.getParts(1).getData().getStructValue();
            assertThat(data.getFieldsOrThrow("words").getNumberValue()).isEqualTo(6);
            assertThat(data.getFieldsOrThrow("averageWordLength").getNumberValue()).isEqualTo(4.17);
            assertThat(data.getFieldsOrThrow("topWords").getListValue().getValues(0).getStructValue()
                    .getFieldsOrThrow("word").getStringValue()).isEqualTo("quick");
        });
    }

    @Test
    void anEmptyTextAlsoAsksForText() {
        Task t = handler(Duration.ZERO).sendMessage(send("", Part.newBuilder().setText("").build())).getTask();
        assertThat(t.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        Task none = handler(Duration.ZERO).sendMessage(send("")).getTask();
        assertThat(none.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
    }

    @Test
    void aCancelBetweenStepsEndsTheTaskCanceledWithoutAnArtifact() {
        // A long step delay: the cancel lands in the first pause and must end the wait at once.
        RequestHandler h = handler(Duration.ofSeconds(30));
        SendMessageRequest req = send("", Part.newBuilder().setText("some text").build()).toBuilder()
                .setConfiguration(SendMessageConfiguration.newBuilder().setReturnImmediately(true)).build();
        Task started = h.sendMessage(req).getTask();
        Task canceled = h.cancelTask(CancelTaskRequest.newBuilder().setId(started.getId()).build());
        assertThat(canceled.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        assertThat(canceled.getArtifactsCount()).isZero();
    }
}
