package legate.a2a.server.task;

import static legate.a2a.server.task.RecordingSubscriber.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.testsupport.StreamRecorder;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTasksRequest;
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
 * Bounded memory (README "Tasks that last"): nothing in the runtime grows with the number of tasks
 * served. A finished task leaves the registry of live turns and its lock; the store keeps only as
 * many finished tasks as it is told.
 */
class LiveTurnsTest {
    private final ExecutorService turns = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicInteger ids = new AtomicInteger();

    @AfterEach
    void stopTurns() throws InterruptedException {
        turns.shutdownNow();
        assertThat(turns.awaitTermination(5, TimeUnit.SECONDS)).as("every turn ended").isTrue();
    }

    /** Input required without text, otherwise WORKING then COMPLETED. */
    private static final ScriptedExecutor.Turn ASK_THEN_COMPLETE = (ctx, events, self) -> {
        events.task(ctx.initialTask());
        if (ctx.message().getPartsCount() == 0) {
            events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText("text please"));
            return;
        }
        events.status(TaskState.TASK_STATE_WORKING, events.agentText("working"));
        events.status(TaskState.TASK_STATE_COMPLETED, null);
    };

    private RequestHandler handler(TaskStore store) {
        AgentCard card = AgentCard.newBuilder().setName("test")
                .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true)).build();
        return new RequestHandler(new ScriptedExecutor(ASK_THEN_COMPLETE), store, card, Clock.systemUTC(),
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

    /** A turn retires just after its answer is out, on its own thread: wait for that, 5 s at most. */
    private static void awaitNothingHeld(RequestHandler h) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (h.tasksHeld() > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        assertThat(h.tasksHeld()).as("turns and task locks still held 5 s after the last answer").isZero();
    }

    @Test
    void afterManyTasksTheStoreHoldsTheBoundAndTheRuntimeNothing() {
        RequestHandler h = handler(new InMemoryTaskStore(5));
        for (int i = 0; i < 50; i++) {
            assertThat(h.sendMessage(send("hello", "")).getTask().getStatus().getState())
                    .isEqualTo(TaskState.TASK_STATE_COMPLETED);
        }
        Task parked = h.sendMessage(send("", "")).getTask();
        assertThat(h.listTasks(ListTasksRequest.getDefaultInstance()).getTotalSize()).isEqualTo(6);
        assertThat(h.getTask(GetTaskRequest.newBuilder().setId(parked.getId()).build()).getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        awaitNothingHeld(h);
    }

    @Test
    void aFinishedTaskLeavesTheLiveTurnsWhateverWayItWasServed() throws Exception {
        RequestHandler h = handler(new InMemoryTaskStore());
        record(h.sendStreamingMessage(send("streamed", ""))).awaitEnd();
        Task parked = h.sendMessage(send("", "")).getTask();
        // A SubscribeToTask follows the parked task to its end (A2A §3.1.6); one resumed ends with its turn.
        StreamRecorder followed = record(h.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(parked.getId()).build()));
        record(h.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(parked.getId()).build(), "1")).awaitEnd();
        // One that goes away before the task ends leaves nothing behind either.
        h.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(parked.getId()).build()).cancel();
        h.sendMessage(send("the reply", parked.getId()));
        followed.awaitEnd();
        Task another = h.sendMessage(send("", "")).getTask();
        h.cancelTask(CancelTaskRequest.newBuilder().setId(another.getId()).build());
        awaitNothingHeld(h);
    }

    @Test
    void aStoppingServerAnswersNewTurnsWithAnErrorInsteadOfLeavingThemHanging() throws Exception {
        RequestHandler h = handler(new InMemoryTaskStore());
        h.close();
        Subscription stream = h.sendStreamingMessage(send("too late", ""));
        assertThat(stream.poll(Duration.ofSeconds(5))).isInstanceOfSatisfying(Subscription.Signal.Failure.class,
                f -> assertThat(f.error().error()).isEqualTo(A2aError.INTERNAL));
        assertThatThrownBy(() -> h.sendMessage(send("too late", ""))).isInstanceOfSatisfying(A2aException.class,
                e -> assertThat(e.getMessage()).contains("stopping"));
        awaitNothingHeld(h);
    }
}
