package legate.a2a.server.task;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.model.TaskStates;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.Principal;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.push.PushNotifications;
import legate.wire.trace.Tracing;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.DeleteTaskPushNotificationConfigRequest;
import lf.a2a.v1.GetTaskPushNotificationConfigRequest;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTaskPushNotificationConfigsRequest;
import lf.a2a.v1.ListTaskPushNotificationConfigsResponse;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.ListTasksResponse;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.SendMessageResponse;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskPushNotificationConfig;

/**
 * The A2A operations, independent of any binding: it owns task identity, storage, the lifecycle of
 * each turn and cancellation, and lets the {@link AgentExecutor} describe only what happens inside
 * a turn. Bindings (JSON-RPC today) translate their wire format to these calls and back.
 *
 * <p>Every method either returns a result or throws {@link A2aException} with the code the
 * protocol asks for; nothing else escapes to a caller.
 *
 * <p>This class is the list of operations and the capability checks of the card; each operation
 * lives in its own class ({@link MessageSending}, {@link TaskReading}, {@link TaskCancelling},
 * {@link TaskSubscribing}), and those that touch a running turn share one {@link LiveTurns}. Every
 * binding passes through here, so a check that every operation needs (who the caller is, and
 * whether the task it names is theirs) belongs here, before the delegation. Where tasks are kept is
 * the {@link TaskStore}; the ordered events of a turn leave through its {@link TaskRun}.
 *
 * <p>Ownership is decided here, not in a binding: every operation takes the {@link Principal} the
 * binding authenticated, and each task and conversation it touches must be that principal's (README
 * "Security"). The overloads without a principal are the anonymous caller's, what a server that
 * authenticates no one passes.
 */
public final class RequestHandler implements AutoCloseable {
    private final AgentCard card;
    private final AgentCard extendedCard;
    private final LiveTurns live;
    private final MessageSending sending;
    private final TaskReading reading;
    private final TaskCancelling cancelling;
    private final TaskSubscribing subscribing;
    /** Null: this agent sends no push notifications, and every push method answers -32003. */
    private final PushNotifications push;
    private final InstanceGroup group;
    private final StreamQuota streams;

    /** The operations of an instance alone on its store, with no extended card and no limit per caller. */
    public RequestHandler(AgentExecutor executor, TaskStore store, AgentCard card, Clock clock,
                          Supplier<String> ids, Duration cancelWait, ExecutorService turns) {
        this(executor, store, card, null, clock, ids, cancelWait, turns, TurnQuota.UNLIMITED, InstanceGroup.ALONE);
    }

    /** The same, counting turns into {@code metrics} and tracing each turn with {@code tracing}. */
    public RequestHandler(AgentExecutor executor, TaskStore store, AgentCard card, Clock clock,
                          Supplier<String> ids, Duration cancelWait, ExecutorService turns, ServerMetrics metrics,
                          Tracing tracing) {
        this(executor, store, card, null, clock, ids, cancelWait, turns, TurnQuota.UNLIMITED, InstanceGroup.ALONE,
                metrics, tracing);
    }

    /** The same, as one instance of {@code group} (see the full constructor). */
    public RequestHandler(AgentExecutor executor, TaskStore store, AgentCard card, Clock clock,
                          Supplier<String> ids, Duration cancelWait, ExecutorService turns, InstanceGroup group) {
        this(executor, store, card, null, clock, ids, cancelWait, turns, TurnQuota.UNLIMITED, group);
    }

    /** The same, alone on its store, with an extended card and a limit per caller (see the full constructor). */
    public RequestHandler(AgentExecutor executor, TaskStore store, AgentCard card, AgentCard extendedCard, Clock clock,
                          Supplier<String> ids, Duration cancelWait, ExecutorService turns, int maxTasksPerPrincipal) {
        this(executor, store, card, extendedCard, clock, ids, cancelWait, turns, maxTasksPerPrincipal,
                InstanceGroup.ALONE);
    }

    /** The same, as one instance of {@code group}, counting nothing that is scraped and tracing nothing. */
    public RequestHandler(AgentExecutor executor, TaskStore store, AgentCard card, AgentCard extendedCard, Clock clock,
                          Supplier<String> ids, Duration cancelWait, ExecutorService turns, int maxTasksPerPrincipal,
                          InstanceGroup group) {
        this(executor, store, card, extendedCard, clock, ids, cancelWait, turns, maxTasksPerPrincipal, group,
                new ServerMetrics(), Tracing.OFF);
    }

    /**
     * The operations of one instance of a {@code group}: a request for a conversation that runs on
     * another instance throws {@link RunsElsewhere} before it has changed anything, for the binding
     * to forward; a task running elsewhere is followed through the store.
     *
     * @param extendedCard what GetExtendedAgentCard answers, or null when none is configured
     * @param maxTasksPerPrincipal the most tasks one principal may have running at once (0: no limit)
     * @param metrics where turns are counted
     * @param tracing traces each turn when on
     */
    public RequestHandler(AgentExecutor executor, TaskStore store, AgentCard card, AgentCard extendedCard, Clock clock,
                          Supplier<String> ids, Duration cancelWait, ExecutorService turns, int maxTasksPerPrincipal,
                          InstanceGroup group, ServerMetrics metrics, Tracing tracing) {
        this(executor, store, card, extendedCard, clock, ids, cancelWait, turns, maxTasksPerPrincipal, group, metrics,
                tracing, null);
    }

    /**
     * The same, sending push notifications through {@code push} when the card says
     * {@code capabilities.pushNotifications}; {@code store} is then {@link PushNotifications#watching}
     * the store, so that every event reaches the task's webhooks.
     *
     * @param push the task's webhooks and their deliveries, or null for none
     */
    public RequestHandler(AgentExecutor executor, TaskStore store, AgentCard card, AgentCard extendedCard, Clock clock,
                          Supplier<String> ids, Duration cancelWait, ExecutorService turns, int maxTasksPerPrincipal,
                          InstanceGroup group, ServerMetrics metrics, Tracing tracing, PushNotifications push) {
        this(executor, store, card, extendedCard, clock, ids, cancelWait, turns, maxTasksPerPrincipal, group, metrics,
                tracing, push, StreamQuota.UNLIMITED);
    }

    /**
     * The same, holding at most {@code maxStreamsPerPrincipal} streams open for one principal.
     *
     * @param maxStreamsPerPrincipal the most SendStreamingMessage and SubscribeToTask streams one principal may
     *     hold open at once, on all bindings together (0: no limit)
     */
    public RequestHandler(AgentExecutor executor, TaskStore store, AgentCard card, AgentCard extendedCard, Clock clock,
                          Supplier<String> ids, Duration cancelWait, ExecutorService turns, int maxTasksPerPrincipal,
                          InstanceGroup group, ServerMetrics metrics, Tracing tracing, PushNotifications push,
                          int maxStreamsPerPrincipal) {
        this.streams = new StreamQuota(maxStreamsPerPrincipal);
        this.push = card.getCapabilities().getPushNotifications() ? push : null;
        this.group = group;
        LiveTurns live = new LiveTurns();
        this.live = live;
        this.card = card;
        this.extendedCard = extendedCard;
        this.reading = new TaskReading(store);
        this.sending = new MessageSending(new TurnLauncher(executor, store, reading, clock, ids, cancelWait, turns,
                live, group, new TurnQuota(maxTasksPerPrincipal), metrics, tracing), store, this.push, !group.alone());
        this.cancelling = new TaskCancelling(executor, store, reading, live, clock, cancelWait, group);
        this.subscribing = new TaskSubscribing(reading, store, live, group);
    }

    public AgentCard card() {
        return card;
    }

    /** SendMessage: blocking unless {@code returnImmediately}. */
    public SendMessageResponse sendMessage(SendMessageRequest request) {
        return sendMessage(request, Principal.ANONYMOUS);
    }

    /** SendMessage as {@code caller}: a new task is theirs; only their own task or conversation is continued. */
    public SendMessageResponse sendMessage(SendMessageRequest request, Principal caller) {
        return sending.send(request, caller.owner());
    }

    /** SendStreamingMessage: the subscription receives every event of the turn, the Task first. */
    public Subscription sendStreamingMessage(SendMessageRequest request) {
        return sendStreamingMessage(request, Principal.ANONYMOUS);
    }

    public Subscription sendStreamingMessage(SendMessageRequest request, Principal caller) {
        requireStreaming();
        // DEFECT (issue 30): the quota was checked first, so at the limit a message that can never be sent
        // (nested too deep) was told -32004 "send this again later"; it is refused with its own error.
        MessageSending.check(request);
        // Before the turn opens: a refused stream leaves no task behind and runs nothing.
        Runnable place = streams.hold(caller.owner());
        return heldUntilOver(place, () -> sending.stream(request, caller.owner()));
    }

    public Task getTask(GetTaskRequest request) {
        return getTask(request, Principal.ANONYMOUS);
    }

    /** GetTask: another principal's task is -32001, exactly as a missing one. */
    public Task getTask(GetTaskRequest request, Principal caller) {
        return reading.getTask(request, caller.owner());
    }

    public ListTasksResponse listTasks(ListTasksRequest request) {
        return listTasks(request, Principal.ANONYMOUS);
    }

    /** ListTasks: the caller's own tasks only. */
    public ListTasksResponse listTasks(ListTasksRequest request, Principal caller) {
        return reading.listTasks(request, caller.owner());
    }

    public Task cancelTask(CancelTaskRequest request) {
        return cancelTask(request, Principal.ANONYMOUS);
    }

    /** CancelTask: another principal's task is -32001, and its turn is never touched. */
    public Task cancelTask(CancelTaskRequest request, Principal caller) {
        return cancelling.cancel(request, caller.owner());
    }

    /** SubscribeToTask as the spec has it: the task's snapshot, then its events up to the terminal one. */
    public Subscription subscribeToTask(SubscribeToTaskRequest request) {
        return subscribeToTask(request, null);
    }

    public Subscription subscribeToTask(SubscribeToTaskRequest request, String lastEventId) {
        return subscribeToTask(request, lastEventId, Principal.ANONYMOUS);
    }

    /**
     * SubscribeToTask, resuming a cut stream when {@code lastEventId} is given: the task's logged
     * events after that id, then the live ones; a terminal task replays what is left and closes.
     *
     * @param lastEventId the {@code Last-Event-ID} the caller sent, as sent (-32602 unless a
     *                    non-negative integer); null for the spec's behaviour
     */
    public Subscription subscribeToTask(SubscribeToTaskRequest request, String lastEventId, Principal caller) {
        requireStreaming();
        // DEFECT (issue 30): at the stream limit a Last-Event-ID such as "abc" was told -32004 "send this
        // again later", below it -32602; a request that can never succeed gets its own error first.
        TaskSubscribing.check(lastEventId);
        Runnable place = streams.hold(caller.owner());
        return heldUntilOver(place, () -> subscribing.subscribe(request, lastEventId, caller.owner()));
    }

    /** The stream {@code open} makes, its place in {@link StreamQuota} given back when it is over or cannot be made. */
    private static Subscription heldUntilOver(Runnable place, Supplier<Subscription> open) {
        Subscription s;
        try {
            s = open.get();
        } catch (RuntimeException e) {
            place.run();
            throw e;
        }
        s.whenOver(place);
        return s;
    }

    /**
     * How many tasks the runtime holds in memory besides the store: turns running or retiring, and
     * task locks in use. A gauge: it falls back to zero once every turn has ended, whatever the
     * number of tasks served.
     */
    public int tasksHeld() {
        return live.held();
    }

    /**
     * The server is draining before it stops: no new turn starts ({@link ServerStopping}); reads,
     * cancels and subscriptions are still served.
     */
    public void drain() {
        live.drain();
    }

    /** Waits for the running turns to end, for {@code max} at most; whether they all did. */
    public boolean awaitTurnsEnded(Duration max) throws InterruptedException {
        return live.awaitIdle(max);
    }

    /**
     * The server is stopping: every running turn is abandoned (its events go nowhere, its task stays
     * as stored for the next start to fail), and turns opened from now on are abandoned at once.
     */
    @Override
    public void close() {
        live.close();
    }

    private void requireStreaming() {
        if (!card.getCapabilities().getStreaming()) {
            throw A2aError.UNSUPPORTED_OPERATION.exception("this agent does not stream (capabilities.streaming is false)");
        }
    }

    /**
     * CreateTaskPushNotificationConfig (A2A §3.1.7): a webhook for the caller's own task, to receive
     * every event of the task after this call. A URL the guard refuses is -32602 naming the rule.
     */
    public TaskPushNotificationConfig createPushConfig(TaskPushNotificationConfig config, Principal caller) {
        PushNotifications p = requirePush();
        StoredTask task = ownedTask(config.getTaskId(), caller);
        webhooksLiveHere(task);
        return p.register(config, task.task().getId(), task.lastSeq());
    }

    /** GetTaskPushNotificationConfig (A2A §3.1.8): an unknown configuration is -32001, as an unknown task. */
    public TaskPushNotificationConfig getPushConfig(GetTaskPushNotificationConfigRequest request, Principal caller) {
        PushNotifications p = requirePush();
        // A read: the configurations are in the store every instance shares, so any instance answers.
        ownedTask(request.getTaskId(), caller);
        return p.get(request.getTaskId(), requiredId(request.getId()));
    }

    /** ListTaskPushNotificationConfigs (A2A §3.1.9): the configurations of the caller's own task. */
    public ListTaskPushNotificationConfigsResponse listPushConfigs(ListTaskPushNotificationConfigsRequest request,
                                                                  Principal caller) {
        PushNotifications p = requirePush();
        ownedTask(request.getTaskId(), caller);
        return p.list(request.getTaskId(), request.getPageSize(), request.getPageToken());
    }

    /** DeleteTaskPushNotificationConfig (A2A §3.1.10): idempotent; its webhook gets nothing more. */
    public void deletePushConfig(DeleteTaskPushNotificationConfigRequest request, Principal caller) {
        PushNotifications p = requirePush();
        webhooksLiveHere(ownedTask(request.getTaskId(), caller));
        p.delete(request.getTaskId(), requiredId(request.getId()));
    }

    /** The caller's task a push method names: an empty taskId is -32602, another principal's task -32001. */
    private StoredTask ownedTask(String taskId, Principal caller) {
        if (taskId.isEmpty()) {
            throw A2aError.INVALID_PARAMS.exception("taskId (the task the push notification configuration is for) is required");
        }
        return reading.storedWithSeq(taskId, caller.owner());
    }

    /**
     * With several instances, a task's webhooks are pumped by the instance its events are appended
     * on, the one that holds its conversation's lease: only that instance's appends wake them. A
     * push method for a task still running (or parked) in a conversation another live instance
     * holds is therefore carried out there ({@link RunsElsewhere}, before anything changes), as a
     * cancel is; one whose conversation has no live holder is leased here, so its next turn runs
     * where its webhook is. A terminal task gets no more events: any instance answers for it. Only
     * the methods that change a webhook come here; Get and List read the shared store, and leasing
     * a conversation as a side effect of a read moved its next turn for no reason.
     */
    private void webhooksLiveHere(StoredTask stored) {
        Task task = stored.task();
        if (group.alone() || live.get(task.getId()) != null || TaskStates.isTerminal(task.getStatus().getState())) {
            return;
        }
        group.runnerElsewhere(task.getContextId()).ifPresent(url -> {
            throw new RunsElsewhere(task.getContextId(), url);
        });
    }

    private static String requiredId(String id) {
        if (id.isEmpty()) {
            throw A2aError.INVALID_PARAMS.exception("id (the push notification configuration's id) is required");
        }
        return id;
    }

    private PushNotifications requirePush() {
        if (push == null) {
            throw pushNotSupported();
        }
        return push;
    }

    /** PROTOCOL (A2A §3.3.4): every push-notification method answers -32003 without the capability. */
    public A2aException pushNotSupported() {
        return A2aError.PUSH_NOTIFICATION_NOT_SUPPORTED.exception(
                "this agent does not send push notifications (capabilities.pushNotifications is false)");
    }

    /**
     * PROTOCOL (A2A §3.1.11, §3.3.4): without capabilities.extendedAgentCard there is none to get
     * (-32004); declared but not configured is -32007. The binding has authenticated the caller with
     * a scheme of the public card before this is reached, as §3.1.11 requires.
     */
    public AgentCard extendedAgentCard() {
        if (!card.getCapabilities().getExtendedAgentCard()) {
            throw A2aError.UNSUPPORTED_OPERATION.exception(
                    "this agent has no extended agent card (capabilities.extendedAgentCard is false)");
        }
        if (extendedCard == null) {
            throw A2aError.EXTENDED_AGENT_CARD_NOT_CONFIGURED.exception("no extended agent card is configured");
        }
        return extendedCard;
    }
}
