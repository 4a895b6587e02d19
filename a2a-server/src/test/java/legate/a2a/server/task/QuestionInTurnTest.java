package legate.a2a.server.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.server.EventSink;
import legate.a2a.server.Reply;
import legate.testsupport.StreamRecorder;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.CancelTaskRequest;
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
 * An execution that asks the caller and goes on with the answer ({@code EventSink.awaitReply}): the
 * question is an ordinary INPUT_REQUIRED to every client (A2A §3.1.3), the reply into the same
 * taskId continues the same execution instead of starting a new one, and a cancel while asking
 * reaches the waiting execution.
 */
class QuestionInTurnTest {
    private final ExecutorService turns = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicInteger ids = new AtomicInteger();
    /** What each execution heard as answers, in order ("none" for no answer). */
    private final List<String> heard = new CopyOnWriteArrayList<>();
    /** Completes when an execution has published its terminal state. */
    private final CompletableFuture<Void> ended = new CompletableFuture<>();

    @AfterEach
    void stopTurns() throws InterruptedException {
        turns.shutdownNow();
        assertThat(turns.awaitTermination(5, TimeUnit.SECONDS)).as("every execution ended").isTrue();
    }

    private RequestHandler handler(Duration askTimeout) {
        AgentCard card = AgentCard.newBuilder().setName("test")
                .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true)).build();
        ScriptedExecutor executor = new ScriptedExecutor((ctx, events, self) -> {
            events.task(ctx.initialTask());
            EventSink sink = events;
            for (String q : List.of("first?", "second?")) {
                Optional<Reply> reply = sink.awaitReply(sink.agentText(q), askTimeout);
                if (reply.isEmpty()) {
                    heard.add("none");
                    if (ctx.cancel().isRequested()) {
                        sink.status(TaskState.TASK_STATE_CANCELED, sink.agentText("canceled while asking"));
                        return;
                    }
                    continue;
                }
                heard.add(reply.get().context().text());
                sink = reply.get().events();
                sink.task(reply.get().context().initialTask());
                sink.status(TaskState.TASK_STATE_WORKING, sink.agentText("got " + reply.get().context().text()));
            }
            sink.status(TaskState.TASK_STATE_COMPLETED, sink.agentText("done after " + heard));
            ended.complete(null);
        });
        return new RequestHandler(executor, new InMemoryTaskStore(), card, Clock.systemUTC(),
                () -> "id-" + ids.incrementAndGet(), Duration.ofSeconds(5), turns);
    }

    private static SendMessageRequest send(String text, String taskId) {
        return SendMessageRequest.newBuilder().setMessage(Message.newBuilder().setMessageId("m-" + System.nanoTime())
                .setRole(Role.ROLE_USER).setTaskId(taskId).addParts(Part.newBuilder().setText(text))).build();
    }

    @Test
    void twoAnswersContinueTheSameExecutionAndTheTaskCompletes() throws Exception {
        RequestHandler h = handler(Duration.ofSeconds(20));
        Task asked = h.sendMessage(send("go", "")).getTask();
        assertThat(asked.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        assertThat(asked.getStatus().getMessage().getParts(0).getText()).isEqualTo("first?");

        Task second = h.sendMessage(send("yes", asked.getId())).getTask();
        assertThat(second.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        assertThat(second.getStatus().getMessage().getParts(0).getText()).isEqualTo("second?");

        Task done = h.sendMessage(send("no", asked.getId())).getTask();
        assertThat(done.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        // One execution heard both answers: a new execute() per reply would have started over at "first?".
        assertThat(heard).containsExactly("yes", "no");
        assertThat(done.getHistoryList()).extracting(m -> m.getParts(0).getText())
                .containsExactly("go", "first?", "yes", "got yes", "second?", "no", "got no", "done after [yes, no]");
        // Bounded memory: every turn of the execution retired, the ones it was handed over from included.
        ended.get(10, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (h.tasksHeld() > 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(h.tasksHeld()).isZero();
    }

    @Test
    void aStreamedReplyStartsWithTheTaskAndFollowsTheExecutionToItsNextQuestion() throws Exception {
        RequestHandler h = handler(Duration.ofSeconds(20));
        Task asked = h.sendMessage(send("go", "")).getTask();
        StreamRecorder r = RecordingSubscriber.record(h.sendStreamingMessage(send("yes", asked.getId())));
        r.awaitEnd();
        assertThat(r.kinds()).first().asString().startsWith("task");
        assertThat(r.states()).containsExactly(TaskState.TASK_STATE_WORKING,
                TaskState.TASK_STATE_INPUT_REQUIRED);
    }

    @Test
    void aSubscriptionOpenedAtTheFirstQuestionFollowsTheExecutionThroughBothAnswersToCompleted() throws Exception {
        RequestHandler h = handler(Duration.ofSeconds(20));
        Task asked = h.sendMessage(send("go", "")).getTask();
        Subscription s = h.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(asked.getId()).build());
        assertThat(Frames.of(s, 1)).containsExactly("2 task:INPUT_REQUIRED");

        h.sendMessage(send("yes", asked.getId()));
        h.sendMessage(send("no", asked.getId()));

        // PROTOCOL (A2A §3.1.6): one stream across both questions and the turns they were answered in.
        assertThat(Frames.toTheEnd(s)).containsExactly("3 task:INPUT_REQUIRED", "4 status:WORKING",
                "5 status:INPUT_REQUIRED", "6 task:INPUT_REQUIRED", "7 status:WORKING", "8 status:COMPLETED");
    }

    @Test
    void noAnswerInTimeLetsTheExecutionGoOnAndALateReplyIsRefusedWhileItRuns() throws Exception {
        RequestHandler h = handler(Duration.ZERO);
        Task asked = h.sendMessage(send("go", "")).getTask();
        // Both questions time out at once; the execution completes by itself.
        ended.get(10, TimeUnit.SECONDS);
        Task done = h.getTask(GetTaskRequest.newBuilder().setId(asked.getId()).build());
        assertThat(done.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(heard).containsExactly("none", "none");
        assertThat(done.getStatus().getMessage().getParts(0).getText()).isEqualTo("done after [none, none]");
        assertThat(catchA2a(() -> h.sendMessage(send("late", asked.getId())))).isEqualTo(A2aError.UNSUPPORTED_OPERATION);
    }

    @Test
    void aCancelWhileAskingReachesTheWaitingExecution() {
        // PROTOCOL (A2A §3.1.5): CancelTask answers once the task is CANCELED. The task looks parked, but its
        // execution is alive: the server must not end the task behind the execution's back.
        RequestHandler h = handler(Duration.ofSeconds(20));
        Task asked = h.sendMessage(send("go", "")).getTask();
        Task canceled = h.cancelTask(CancelTaskRequest.newBuilder().setId(asked.getId()).build());
        assertThat(canceled.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        assertThat(canceled.getStatus().getMessage().getParts(0).getText()).isEqualTo("canceled while asking");
        assertThat(heard).containsExactly("none");
    }

    private static A2aError catchA2a(Runnable call) {
        try {
            call.run();
        } catch (A2aException e) {
            return e.error();
        }
        throw new AssertionError("no A2A error");
    }
}
