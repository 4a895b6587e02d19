package legate.a2a.server.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * SubscribeToTask without Last-Event-ID follows the task to its terminal state. PROTOCOL (A2A
 * §3.1.6): the stream "MUST terminate when the task reaches a terminal state", so it stays open
 * across INPUT_REQUIRED and goes on with the turn the reply starts, with the same ids as every
 * other stream; PEER (@a2a-js/sdk 1.2.0) closes after a parked task's snapshot instead (docs/peers.md
 * §3), and the official TCK's STREAM-SUB-002 asks for the spec's behaviour. SendStreamingMessage
 * and a stream resumed with Last-Event-ID still end with their turn.
 */
class TaskFollowingTest {
    private final ExecutorService turns = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicInteger ids = new AtomicInteger();
    /** The first turn asks its question once this opens; open unless a test closes it. */
    private volatile CountDownLatch mayAsk = new CountDownLatch(0);

    @AfterEach
    void stopTurns() throws InterruptedException {
        mayAsk.countDown();
        turns.shutdownNow();
        assertThat(turns.awaitTermination(5, TimeUnit.SECONDS)).as("every turn ended").isTrue();
    }

    /** Without text: WORKING, then INPUT_REQUIRED (events 1-3). A reply: the Task, WORKING, COMPLETED (4-6). */
    private final ScriptedExecutor.Turn askThenComplete = (ctx, events, self) -> {
        events.task(ctx.initialTask());
        events.status(TaskState.TASK_STATE_WORKING, events.agentText("reading"));
        if (ctx.message().getPartsCount() == 0) {
            mayAsk.await(5, TimeUnit.SECONDS);
            events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText("text please"));
            return;
        }
        events.status(TaskState.TASK_STATE_COMPLETED, null);
    };

    private final RequestHandler h = new RequestHandler(new ScriptedExecutor(askThenComplete), new InMemoryTaskStore(),
            AgentCard.newBuilder().setName("test").setCapabilities(AgentCapabilities.newBuilder().setStreaming(true))
                    .build(), Clock.systemUTC(), () -> "id-" + ids.incrementAndGet(), Duration.ofSeconds(5), turns);

    private static SendMessageRequest send(String text, String taskId) {
        Message.Builder m = Message.newBuilder().setMessageId("m-" + System.nanoTime()).setRole(Role.ROLE_USER)
                .setTaskId(taskId);
        if (!text.isEmpty()) {
            m.addParts(Part.newBuilder().setText(text));
        }
        return SendMessageRequest.newBuilder().setMessage(m).build();
    }

    private Subscription subscribe(String taskId) {
        return h.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(taskId).build());
    }

    private String parkedTask() {
        return h.sendMessage(send("", "")).getTask().getId();
    }

    /** Turns retire and followers leave on their own threads: wait for that, 5 s at most. */
    private void awaitNothingHeld() {
        awaitHeld(0);
    }

    private void awaitHeld(int n) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (h.tasksHeld() != n && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        assertThat(h.tasksHeld()).as("turns, locks and followers held").isEqualTo(n);
    }

    @Test
    void aParkedTaskSubscribedToIsFollowedThroughTheReplysTurnAndTheStreamEndsCompleted() throws Exception {
        String task = parkedTask();
        Subscription s = subscribe(task);
        assertThat(Frames.of(s, 1)).containsExactly("3 task:INPUT_REQUIRED");

        h.sendMessage(send("the text", task));

        assertThat(Frames.toTheEnd(s)).containsExactly("4 task:INPUT_REQUIRED", "5 status:WORKING", "6 status:COMPLETED");
        awaitNothingHeld();
    }

    @Test
    void aTaskSubscribedWhileWorkingIsFollowedAcrossItsQuestionToTheEndOfTheNextTurn() throws Exception {
        mayAsk = new CountDownLatch(1);
        Subscription first = h.sendStreamingMessage(send("", ""));
        Subscription.Signal.Event opened = (Subscription.Signal.Event) first.poll(Duration.ofSeconds(5));
        String task = opened.event().getTask().getId();
        assertThat(Frames.of(first, 1)).containsExactly("2 status:WORKING");
        Subscription s = subscribe(task);
        assertThat(Frames.of(s, 1)).containsExactly("2 task:WORKING");

        mayAsk.countDown();
        // SendStreamingMessage still ends with its turn (PEER @a2a-js/sdk 1.2.0, A2A §11.7).
        assertThat(Frames.toTheEnd(first)).containsExactly("3 status:INPUT_REQUIRED");
        assertThat(Frames.of(s, 1)).containsExactly("3 status:INPUT_REQUIRED");

        Subscription reply = h.sendStreamingMessage(send("the text", task));
        assertThat(Frames.toTheEnd(reply)).containsExactly("4 task:INPUT_REQUIRED", "5 status:WORKING", "6 status:COMPLETED");
        assertThat(Frames.toTheEnd(s)).containsExactly("4 task:INPUT_REQUIRED", "5 status:WORKING", "6 status:COMPLETED");
        awaitNothingHeld();
    }

    @Test
    void aCancelOfAParkedTaskEndsItsSubscriptionWithCanceled() throws Exception {
        String task = parkedTask();
        Subscription s = subscribe(task);
        assertThat(Frames.of(s, 1)).containsExactly("3 task:INPUT_REQUIRED");

        h.cancelTask(CancelTaskRequest.newBuilder().setId(task).build());

        assertThat(Frames.toTheEnd(s)).containsExactly("4 status:CANCELED");
        awaitNothingHeld();
    }

    @Test
    void aServerThatStopsEndsTheStreamsOfParkedTasksCleanly() throws Exception {
        String task = parkedTask();
        Subscription s = subscribe(task);
        assertThat(Frames.of(s, 1)).containsExactly("3 task:INPUT_REQUIRED");

        h.close();

        // An end, not an error: a client resumes elsewhere with its last id.
        assertThat(Frames.toTheEnd(s)).isEmpty();
        assertThat(Frames.toTheEnd(subscribe(task))).as("opened as the server stops").containsExactly("3 task:INPUT_REQUIRED");
        awaitNothingHeld();
    }

    @Test
    void everySubscriberGetsEveryEventInOrderAndOneLeavingCostsNothingElse() throws Exception {
        String task = parkedTask();
        List<Subscription> staying = List.of(subscribe(task), subscribe(task));
        Subscription leaving = subscribe(task);
        for (Subscription s : List.of(staying.get(0), staying.get(1), leaving)) {
            assertThat(Frames.of(s, 1)).containsExactly("3 task:INPUT_REQUIRED");
        }
        // Three followers and no turn: nothing else is held for a task that waits for a reply.
        awaitHeld(3);

        // PROTOCOL (A2A §3.5.2): closing one stream affects neither the task nor the other streams.
        leaving.cancel();
        assertThat(h.tasksHeld()).as("a follower that left is not kept").isEqualTo(2);
        assertThat(leaving.poll(Duration.ZERO)).as("nothing more for the one that left").isNull();
        h.sendMessage(send("the text", task));

        for (Subscription s : staying) {
            assertThat(Frames.toTheEnd(s)).containsExactly("4 task:INPUT_REQUIRED", "5 status:WORKING", "6 status:COMPLETED");
        }
        awaitNothingHeld();
    }

    @Test
    void aStreamResumedWithLastEventIdStillEndsWithItsTurnWhileAPlainSubscriptionGoesOn() throws Exception {
        mayAsk = new CountDownLatch(1);
        Subscription first = h.sendStreamingMessage(send("", ""));
        String task = ((Subscription.Signal.Event) first.poll(Duration.ofSeconds(5))).event().getTask().getId();
        assertThat(Frames.of(first, 1)).containsExactly("2 status:WORKING");
        // The client's connection is cut after event 2; it resumes, and another client subscribes.
        first.cancel();
        Subscription resumed = h.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(task).build(), "2");
        Subscription plain = subscribe(task);
        mayAsk.countDown();

        // README "Tasks that last": the resumed stream ends where the cut one would have.
        assertThat(Frames.toTheEnd(resumed)).containsExactly("3 status:INPUT_REQUIRED");
        assertThat(Frames.of(plain, 2)).containsExactly("2 task:WORKING", "3 status:INPUT_REQUIRED");
        h.sendMessage(send("the text", task));
        assertThat(Frames.toTheEnd(plain)).containsExactly("4 task:INPUT_REQUIRED", "5 status:WORKING", "6 status:COMPLETED");
        awaitNothingHeld();
    }
}
