package legate.a2a.server.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.server.EventSink;
import legate.a2a.server.Reply;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.push.AllowedHosts;
import legate.a2a.server.push.PushNotifications;
import legate.a2a.server.push.PushSettings;
import legate.wire.trace.Tracing;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageConfiguration;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskPushNotificationConfig;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * MAX_TASKS_PER_PRINCIPAL and executions that ask the caller ({@code EventSink.awaitReply}, the
 * bridge's ACP_PERMISSIONS=ask). DEFECT (issue 30, defect 2): an execution waiting at a question
 * kept its caller's place, a reply sent at the limit was refused with -32004 after it had been
 * claimed, and the execution waited forever: its timeout never fired and a cancel answered -32002.
 * Now an execution waiting at a question holds no place, a reply to it is never refused by the
 * limit, and a request that fails after claiming a reply gives the claim back.
 */
class QuestionAtTheLimitTest {
    private static final Duration CANCEL_WAIT = Duration.ofSeconds(5);

    private final ExecutorService turns = Executors.newVirtualThreadPerTaskExecutor();
    private final AtomicInteger ids = new AtomicInteger();
    /** What the executions heard as answers, in order ("none" for no answer). */
    private final List<String> heard = new CopyOnWriteArrayList<>();
    /** Saving a webhook fails while set: a failure after the reply was claimed. */
    private final AtomicBoolean pushStoreBroken = new AtomicBoolean();
    /** Completes when an execution has published COMPLETED. */
    private final CompletableFuture<Void> completed = new CompletableFuture<>();

    @AfterEach
    void stopTurns() throws InterruptedException {
        turns.shutdownNow();
        assertThat(turns.awaitTermination(5, TimeUnit.SECONDS)).as("every execution ended").isTrue();
    }

    /** Each execution asks "first?" then "second?" and completes; a cancel or no answer ends it as QuestionInTurnTest's. */
    private RequestHandler handler(int maxTasksPerPrincipal, Duration askTimeout) {
        AgentCard card = AgentCard.newBuilder().setName("test").setCapabilities(AgentCapabilities.newBuilder()
                .setStreaming(true).setPushNotifications(true)).build();
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
            completed.complete(null);
        });
        TaskStore store = new ForwardingTaskStore(new InMemoryTaskStore()) {
            @Override
            public void savePushConfig(StoredPushConfig config) {
                if (pushStoreBroken.get()) {
                    throw A2aError.INTERNAL.exception("the store cannot save the webhook");
                }
                super.savePushConfig(config);
            }
        };
        PushNotifications push = new PushNotifications(PushSettings.DEFAULT.withAllowed(AllowedHosts.parse("127.0.0.1")),
                store, Clock.systemUTC(), new ServerMetrics(), null, new Random(1));
        return new RequestHandler(executor, push.watching(store), card, null, Clock.systemUTC(),
                () -> "id-" + ids.incrementAndGet(), CANCEL_WAIT, turns, maxTasksPerPrincipal, InstanceGroup.ALONE,
                new ServerMetrics(), Tracing.OFF, push);
    }

    private static SendMessageRequest send(String text, String taskId) {
        return SendMessageRequest.newBuilder().setMessage(Message.newBuilder().setMessageId("m-" + System.nanoTime())
                .setRole(Role.ROLE_USER).setTaskId(taskId).addParts(Part.newBuilder().setText(text))).build();
    }

    /** The same message with a webhook to register on its task (port 9: nothing is ever delivered in these tests). */
    private static SendMessageRequest withWebhook(SendMessageRequest request) {
        return request.toBuilder().setConfiguration(SendMessageConfiguration.newBuilder().setTaskPushNotificationConfig(
                TaskPushNotificationConfig.newBuilder().setUrl("http://127.0.0.1:9/hook"))).build();
    }

    private static String said(Task t) {
        return t.getStatus().getMessage().getParts(0).getText();
    }

    @Test
    void aReplyAtALimitOfOneContinuesTheExecutionThatAsked() {
        RequestHandler h = handler(1, Duration.ofMinutes(1));
        Task asked = h.sendMessage(send("go", "")).getTask();
        assertThat(said(asked)).isEqualTo("first?");

        Task second = h.sendMessage(send("yes", asked.getId())).getTask();
        assertThat(second.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        assertThat(said(second)).isEqualTo("second?");
        Task done = h.sendMessage(send("no", asked.getId())).getTask();
        assertThat(done.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(heard).containsExactly("yes", "no");
    }

    @Test
    void anExecutionWaitingAtAQuestionHoldsNoPlaceAndEveryReplyIsTakenPastTheLimit() {
        RequestHandler h = handler(1, Duration.ofMinutes(1));
        // README (MAX_TASKS_PER_PRINCIPAL): a task parked in INPUT_REQUIRED does not count, asked by a waiting execution too.
        Task first = h.sendMessage(send("go", "")).getTask();
        Task second = h.sendMessage(send("go", "")).getTask();
        assertThat(said(second)).isEqualTo("first?");
        assertThat(h.sendMessage(send("yes", first.getId())).getTask().getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        assertThat(h.sendMessage(send("yes", second.getId())).getTask().getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        assertThat(h.sendMessage(send("no", first.getId())).getTask().getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(h.sendMessage(send("no", second.getId())).getTask().getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_COMPLETED);
    }

    @Test
    void aReplyWhoseRequestFailsAfterTheClaimLeavesTheQuestionOpenForTheNextReply() {
        RequestHandler h = handler(1, Duration.ofMinutes(1));
        Task asked = h.sendMessage(send("go", "")).getTask();
        pushStoreBroken.set(true);
        assertThatThrownBy(() -> h.sendMessage(withWebhook(send("yes", asked.getId()))))
                .isInstanceOf(A2aException.class).hasMessageContaining("cannot save the webhook");
        pushStoreBroken.set(false);

        // Nothing of the failed reply was kept: the next one is the answer the execution hears.
        Task second = h.sendMessage(send("yes", asked.getId())).getTask();
        assertThat(said(second)).isEqualTo("second?");
        assertThat(heard).containsExactly("yes");
        // Its place came back too: the caller may start another task at a limit of one.
        assertThat(h.sendMessage(send("go", "")).getTask().getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
    }

    @Test
    void aCancelAfterAFailedReplyReachesTheWaitingExecutionAtOnce() {
        // No limit: the claim left behind alone froze the execution.
        RequestHandler h = handler(TurnQuota.UNLIMITED, Duration.ofMinutes(1));
        Task asked = h.sendMessage(send("go", "")).getTask();
        pushStoreBroken.set(true);
        assertThatThrownBy(() -> h.sendMessage(withWebhook(send("yes", asked.getId()))))
                .isInstanceOf(A2aException.class);

        // PROTOCOL (A2A §3.1.5): the cancel reaches the execution and ends the task CANCELED (it was -32002 after the wait).
        Task canceled = h.cancelTask(CancelTaskRequest.newBuilder().setId(asked.getId()).build());
        assertThat(canceled.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        assertThat(said(canceled)).isEqualTo("canceled while asking");
    }

    @Test
    void noAnswerInTimeAfterAFailedReplyLetsTheExecutionGoOn() throws Exception {
        RequestHandler h = handler(TurnQuota.UNLIMITED, Duration.ofMillis(200));
        Task asked = h.sendMessage(send("go", "")).getTask();
        pushStoreBroken.set(true);
        assertThatThrownBy(() -> h.sendMessage(withWebhook(send("yes", asked.getId()))))
                .isInstanceOf(A2aException.class);

        // The ask timeout still fires for both questions, and the execution completes by itself.
        completed.get(10, TimeUnit.SECONDS);
        assertThat(heard).containsExactly("none", "none");
    }
}
