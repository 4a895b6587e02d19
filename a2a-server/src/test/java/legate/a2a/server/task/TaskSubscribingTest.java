package legate.a2a.server.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SubscribeToTask with a Last-Event-ID, across turns, without a transport: what a resumed stream
 * carries when the task asked for input and a reply started the next turn (README "Tasks that
 * last"). The single-turn cases are tested on a real socket in {@code ResumableStreamTest}.
 */
class TaskSubscribingTest {
    private final ExecutorService turns = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicInteger ids = new AtomicInteger();
    private final CountDownLatch secondTurnMayEnd = new CountDownLatch(1);

    @AfterEach
    void stopTurns() throws InterruptedException {
        secondTurnMayEnd.countDown();
        turns.shutdownNow();
        assertThat(turns.awaitTermination(5, TimeUnit.SECONDS)).as("every turn ended").isTrue();
    }

    /** Without text: WORKING, then INPUT_REQUIRED (events 1-3). A reply: WORKING, waits for the test, COMPLETED (4-6). */
    private final ScriptedExecutor.Turn askThenWork = (ctx, events, self) -> {
        events.task(ctx.initialTask());
        events.status(TaskState.TASK_STATE_WORKING, events.agentText("reading"));
        if (ctx.message().getPartsCount() == 0) {
            events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText("text please"));
            return;
        }
        secondTurnMayEnd.await(5, TimeUnit.SECONDS);
        events.status(TaskState.TASK_STATE_COMPLETED, null);
    };

    private RequestHandler handler() {
        AgentCard card = AgentCard.newBuilder().setName("test")
                .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true)).build();
        return new RequestHandler(new ScriptedExecutor(askThenWork), new InMemoryTaskStore(), card, Clock.systemUTC(),
                () -> "id-" + ids.incrementAndGet(), Duration.ofSeconds(5), turns);
    }

    private static SendMessageRequest send(String text, String taskId) {
        Message.Builder m = Message.newBuilder().setMessageId("m-" + System.nanoTime()).setRole(Role.ROLE_USER)
                .setTaskId(taskId);
        if (!text.isEmpty()) {
            m.addParts(Part.newBuilder().setText(text));
        }
        return SendMessageRequest.newBuilder().setMessage(m).build();
    }

    private static SubscribeToTaskRequest subscribe(String taskId) {
        return SubscribeToTaskRequest.newBuilder().setId(taskId).build();
    }

    private static List<String> frames(Subscription s, int atMost) throws InterruptedException {
        return Frames.of(s, atMost);
    }

    private static void awaitState(RequestHandler h, String taskId, TaskState state) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (h.getTask(GetTaskRequest.newBuilder().setId(taskId).build()).getStatus().getState() != state) {
            assertThat(System.nanoTime()).as("task %s reaches %s within 5 s", taskId, state).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @Test
    void aStreamCutBeforeTheQuestionEndsWithItEvenWhenTheNextTurnRuns() throws Exception {
        RequestHandler h = handler();
        Task parked = h.sendMessage(send("", "")).getTask();
        // The reply's turn runs (events 4 and 5) and waits for the test.
        Subscription next = h.sendStreamingMessage(send("the text", parked.getId()));
        assertThat(frames(next, 2)).containsExactly("4 task:INPUT_REQUIRED", "5 status:WORKING");

        // A client cut off after event 2 gets the question and its stream closes, as the cut one would have.
        assertThat(frames(h.subscribeToTask(subscribe(parked.getId()), "2"), 10))
                .containsExactly("3 status:INPUT_REQUIRED");
    }

    @Test
    void aClientThatSawTheQuestionResumesIntoTheNextTurnAndFollowsItLive() throws Exception {
        RequestHandler h = handler();
        Task parked = h.sendMessage(send("", "")).getTask();
        Subscription next = h.sendStreamingMessage(send("the text", parked.getId()));
        assertThat(frames(next, 2)).containsExactly("4 task:INPUT_REQUIRED", "5 status:WORKING");

        Subscription resumed = h.subscribeToTask(subscribe(parked.getId()), "3");
        secondTurnMayEnd.countDown();
        // PROTOCOL (A2A §3.1.6): the stream ends at the terminal event; the restated Task did not end it.
        assertThat(frames(resumed, 10))
                .containsExactly("4 task:INPUT_REQUIRED", "5 status:WORKING", "6 status:COMPLETED");
    }

    @Test
    void aParkedTaskReplaysWhatIsLeftAndCloses() throws Exception {
        RequestHandler h = handler();
        Task parked = h.sendMessage(send("", "")).getTask();
        assertThat(frames(h.subscribeToTask(subscribe(parked.getId()), "1"), 10))
                .containsExactly("2 status:WORKING", "3 status:INPUT_REQUIRED");
        assertThat(frames(h.subscribeToTask(subscribe(parked.getId()), "3"), 10)).isEmpty();
        // Without the header the spec's behaviour stands: the snapshot, with the id of the latest
        // event, and the stream stays open for the next turn (TaskFollowingTest).
        Subscription plain = h.subscribeToTask(subscribe(parked.getId()));
        assertThat(frames(plain, 1)).containsExactly("3 task:INPUT_REQUIRED");
        plain.cancel();
    }

    @Test
    void theSnapshotOfALiveTurnCarriesTheIdOfTheLatestEventItShows() throws Exception {
        RequestHandler h = handler();
        Task parked = h.sendMessage(send("", "")).getTask();
        Subscription next = h.sendStreamingMessage(send("the text", parked.getId()));
        assertThat(frames(next, 2)).hasSize(2);
        Subscription late = h.subscribeToTask(subscribe(parked.getId()));
        Subscription bogus = h.subscribeToTask(subscribe(parked.getId()), "99");
        secondTurnMayEnd.countDown();
        assertThat(frames(late, 10)).containsExactly("5 task:WORKING", "6 status:COMPLETED");
        assertThat(frames(bogus, 10)).containsExactly("5 task:WORKING", "6 status:COMPLETED");
        awaitState(h, parked.getId(), TaskState.TASK_STATE_COMPLETED);
    }

    @Test
    void aLastEventIdThatIsNotANonNegativeIntegerIsInvalidParams() {
        RequestHandler h = handler();
        Task parked = h.sendMessage(send("", "")).getTask();
        for (String bad : List.of("", " ", "-1", "1.5", "abc", "+3", "99999999999999999999")) {
            assertThatThrownBy(() -> h.subscribeToTask(subscribe(parked.getId()), bad)).as("Last-Event-ID \"%s\"", bad)
                    .isInstanceOfSatisfying(A2aException.class, e -> {
                        assertThat(e.error()).isEqualTo(A2aError.INVALID_PARAMS);
                        assertThat(e.getMessage()).contains("Last-Event-ID");
                    });
        }
        assertThat(h.subscribeToTask(subscribe(parked.getId()), " 3 ")).isNotNull();
    }
}
