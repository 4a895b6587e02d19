package legate.a2a.server.task;

import java.util.concurrent.ExecutionException;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.model.NestingLimit;
import legate.a2a.server.push.PushNotifications;
import lf.a2a.v1.Message;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageConfiguration;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.SendMessageResponse;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;

/**
 * SendMessage and SendStreamingMessage (A2A §3.1.1, §3.1.2): checks the caller's message, opens
 * the turn it starts or continues, and answers blocking, at once ({@code returnImmediately}) or as
 * a stream of the turn's events.
 */
final class MessageSending {
    private final TurnLauncher launcher;
    private final TaskStore store;
    /** Null when the agent sends no push notifications. */
    private final PushNotifications push;
    /** Other instances share the store: a continued task's webhooks may have been pumped by one now gone. */
    private final boolean grouped;

    MessageSending(TurnLauncher launcher, TaskStore store, PushNotifications push, boolean grouped) {
        this.grouped = grouped;
        this.launcher = launcher;
        this.store = store;
        this.push = push;
    }

    /** Blocking unless {@code returnImmediately}: answers once the turn has something to act on. */
    SendMessageResponse send(SendMessageRequest request, String owner) {
        // returnImmediately answers with the new task itself: its first event must outlive a crash.
        TurnLauncher.Turn turn = open(request, request.getConfiguration().getReturnImmediately(), owner);
        launcher.launch(turn);
        TaskRun run = turn.run();
        SendMessageConfiguration configuration = request.getConfiguration();
        boolean immediately = configuration.getReturnImmediately();
        StreamResponse outcome;
        try {
            // PROTOCOL (A2A §3.2.2): blocking by default; returnImmediately answers with the first Task.
            outcome = immediately ? run.firstEvent.get() : run.turnEnded.get();
            if (outcome == null) {
                outcome = run.firstEvent.get();
            }
        } catch (ExecutionException e) {
            throw asA2a(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw A2aError.INTERNAL.exception("interrupted while waiting for the agent");
        }
        if (outcome.hasMessage()) {
            return SendMessageResponse.newBuilder().setMessage(outcome.getMessage()).build();
        }
        Task task = immediately && outcome.hasTask() ? outcome.getTask() : run.current();
        return SendMessageResponse.newBuilder()
                .setTask(new HistoryLength(configuration.hasHistoryLength(), configuration.getHistoryLength())
                        .applyTo(task))
                .build();
    }

    /** Streaming: the subscription receives every event of the turn, the Task first. */
    Subscription stream(SendMessageRequest request, String owner) {
        // The stream's first frame tells the caller the new task's id: its creation is committed before
        // that frame is written, as for returnImmediately. The frames wait for that commit; the turn does not.
        // DEFECT: a kill -9 right after the first frames (the Task, WORKING) lost the task; GetTask of
        // the id the caller was given answered -32001 after the restart.
        TurnLauncher.Turn turn = open(request, true, owner);
        // Subscribed before the executor runs, so the stream misses nothing.
        Subscription events = turn.run().subscribeStream();
        launcher.launch(turn);
        return events;
    }

    /**
     * The checks a request fails whatever the server's state: -32602 for a message that could never
     * be sent. Stateless, so a caller may run them before taking any place (a stream's, in
     * {@link StreamQuota}); {@link #send} and {@link #stream} run them again.
     */
    static void check(SendMessageRequest request) {
        if (!request.hasMessage()) {
            throw A2aError.INVALID_PARAMS.exception("params.message is required");
        }
        Message message = request.getMessage();
        if (message.getMessageId().isEmpty()) {
            throw A2aError.INVALID_PARAMS.exception("message.messageId is required");
        }
        if (message.getRole() == Role.ROLE_UNSPECIFIED) {
            throw A2aError.INVALID_PARAMS.exception("message.role is required: \"ROLE_USER\" for a client's message");
        }
        // DEFECT: a message whose metadata nested 34 objects was stored and then never decoded again
        // (GetTask, ListTasks and the next start all failed). Every binding's request passes here,
        // so the limit is checked once for all of them, before anything is stored.
        NestingLimit.check(request, "");
    }

    /** @param answersWithFirstEvent the caller hears of the task before its turn ends (returnImmediately, a stream) */
    private TurnLauncher.Turn open(SendMessageRequest request, boolean answersWithFirstEvent, String owner) {
        check(request);
        Message message = request.getMessage();
        SendMessageConfiguration configuration = request.getConfiguration();
        if (configuration.hasTaskPushNotificationConfig()) {
            if (push == null) {
                throw A2aError.PUSH_NOTIFICATION_NOT_SUPPORTED.exception(
                        "this agent does not send push notifications (capabilities.pushNotifications is false)");
            }
            // Checked before the turn opens: a refused webhook leaves no task behind.
            push.check(configuration.getTaskPushNotificationConfig());
            if (!message.getTaskId().isEmpty() && store.load(message.getTaskId())
                    .filter(t -> t.owner().equals(owner)).isPresent()) {
                push.requireRoom(message.getTaskId(), configuration.getTaskPushNotificationConfig().getId());
            }
        }
        TurnLauncher.Turn turn = launcher.open(message, configuration, answersWithFirstEvent, owner);
        try {
            adoptWebhooks(turn, message);
            if (configuration.hasTaskPushNotificationConfig()) {
                // PROTOCOL (A2A §3.1.1, §4.3): the inline configuration is registered on the task the message
                // opens or continues, before its turn runs, so it receives every event of the turn (a new
                // task's first Task included). Not launched yet: the task's log ends where the stored task does.
                String taskId = turn.run().taskId();
                long afterSeq = store.load(taskId).map(StoredTask::lastSeq).orElse(0L);
                push.register(configuration.getTaskPushNotificationConfig(), taskId, afterSeq);
            }
        } catch (RuntimeException e) {
            // DEFECT: a reply claimed for a waiting execution and then failed here left that execution
            // waiting for it for good; an opened turn gives everything back when its request fails.
            launcher.withdraw(turn, e);
            throw e;
        }
        return turn;
    }

    /**
     * A turn opened here continues a task whose conversation may have been leased to an instance
     * that is gone: that instance pumped the task's webhooks, and this one, whose appends the turn's
     * events now are, takes them over before the turn runs. Alone on a store, every pump is here.
     */
    private void adoptWebhooks(TurnLauncher.Turn turn, Message message) {
        if (push != null && grouped && !message.getTaskId().isEmpty()) {
            push.adopt(turn.run().taskId());
        }
    }

    private static A2aException asA2a(Throwable t) {
        if (t instanceof A2aException a) {
            return a;
        }
        return A2aError.INTERNAL.exception("internal error");
    }
}
