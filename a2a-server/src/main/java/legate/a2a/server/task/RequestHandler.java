package legate.a2a.server.task;

import com.google.protobuf.util.Timestamps;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.model.TaskStates;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.RequestContext;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.ListTasksResponse;
import lf.a2a.v1.Message;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.SendMessageResponse;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The A2A operations, independent of any binding: it owns task identity, storage, the lifecycle of
 * each turn and cancellation, and lets the {@link AgentExecutor} describe only what happens inside
 * a turn. Bindings (JSON-RPC today) translate their wire format to these calls and back.
 *
 * <p>Every method either returns a result or throws {@link A2aException} with the code the
 * protocol asks for; nothing else escapes to a caller.
 */
public final class RequestHandler {
    private static final Logger LOG = LoggerFactory.getLogger(RequestHandler.class);
    private static final int DEFAULT_PAGE_SIZE = 50;

    private final AgentExecutor executor;
    private final String executorName;
    private final TaskStore store;
    private final AgentCard card;
    private final Clock clock;
    private final Supplier<String> ids;
    private final Duration cancelWait;
    private final ExecutorService turns;
    /** The turns running now, by task id; also the lock that orders starting a turn against a cancel. */
    private final Map<String, TaskRun> live = new ConcurrentHashMap<>();

    public RequestHandler(AgentExecutor executor, TaskStore store, AgentCard card, Clock clock,
                          Supplier<String> ids, Duration cancelWait, ExecutorService turns) {
        this.executor = executor;
        this.executorName = executor.getClass().getSimpleName();
        this.store = store;
        this.card = card;
        this.clock = clock;
        this.ids = ids;
        this.cancelWait = cancelWait;
        this.turns = turns;
    }

    public AgentCard card() {
        return card;
    }

    // ------------------------------------------------------------------ SendMessage

    /** Blocking unless {@code returnImmediately}: answers once the turn has something to act on. */
    public SendMessageResponse sendMessage(SendMessageRequest request) {
        TaskRun run = start(request);
        boolean immediately = request.getConfiguration().getReturnImmediately();
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
        Task task = immediately ? firstTask(run, outcome) : run.current();
        return SendMessageResponse.newBuilder()
                .setTask(withHistory(task, request.getConfiguration().hasHistoryLength(),
                        request.getConfiguration().getHistoryLength()))
                .build();
    }

    private static Task firstTask(TaskRun run, StreamResponse first) {
        return first.hasTask() ? first.getTask() : run.current();
    }

    /** Streaming: the subscription receives every event of the turn, the Task first. */
    public Subscription sendStreamingMessage(SendMessageRequest request) {
        requireStreaming();
        Subscription[] sub = new Subscription[1];
        start(request, run -> sub[0] = run.subscribe());
        return sub[0];
    }

    private TaskRun start(SendMessageRequest request) {
        return start(request, run -> {
        });
    }

    /** Validates the message, finds or creates the task identity and starts the executor's turn. */
    private TaskRun start(SendMessageRequest request, java.util.function.Consumer<TaskRun> beforeStart) {
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
        if (request.getConfiguration().hasTaskPushNotificationConfig()) {
            throw A2aError.PUSH_NOTIFICATION_NOT_SUPPORTED.exception(
                    "this agent does not send push notifications (capabilities.pushNotifications is false)");
        }
        if (message.getTaskId().isEmpty()) {
            String contextId = message.getContextId().isEmpty() ? ids.get() : message.getContextId();
            String taskId = ids.get();
            TaskRun run = new TaskRun(taskId, contextId, executorName, store, clock, true);
            live.put(taskId, run);
            beforeStart.accept(run);
            launch(run, new RequestContext(taskId, contextId, stamped(message, taskId, contextId), null,
                    request.getConfiguration()));
            return run;
        }
        String taskId = message.getTaskId();
        awaitQuestionTurn(taskId);
        TaskRun[] started = new TaskRun[1];
        live.compute(taskId, (id, running) -> {
            Task stored = store.get(id).orElseThrow(() -> A2aError.TASK_NOT_FOUND.exception("Task not found: " + id));
            if (TaskStates.isTerminal(stored.getStatus().getState())) {
                // PROTOCOL (A2A §3.1.1): a terminal task accepts no further messages.
                throw A2aError.UNSUPPORTED_OPERATION.exception("Task " + id + " is "
                        + TaskStates.label(stored.getStatus().getState()) + " and cannot accept more messages");
            }
            if (!message.getContextId().isEmpty() && !message.getContextId().equals(stored.getContextId())) {
                // PROTOCOL (A2A §3.4.3): a contextId that contradicts its task MUST be rejected.
                throw A2aError.INVALID_PARAMS.exception("message.contextId " + message.getContextId()
                        + " does not match the contextId of task " + id);
            }
            if (running != null) {
                throw A2aError.UNSUPPORTED_OPERATION.exception("Task " + id + " is still "
                        + TaskStates.label(stored.getStatus().getState())
                        + "; send the next message once it asks for input or finishes");
            }
            TaskRun run = new TaskRun(id, stored.getContextId(), executorName, store, clock, false);
            beforeStart.accept(run);
            started[0] = run;
            launch(run, new RequestContext(id, stored.getContextId(),
                    stamped(message, id, stored.getContextId()), stored, request.getConfiguration()));
            return run;
        });
        return started[0];
    }

    /**
     * DEFECT: a reply sent the moment INPUT_REQUIRED reached the caller could arrive before the
     * executor that asked the question had returned, and was refused as "still running". The reply
     * now waits (boundedly) for that turn to retire; a turn that is really still working is refused.
     */
    private void awaitQuestionTurn(String taskId) {
        TaskRun asking = live.get(taskId);
        if (asking == null || !asking.askedForInput()) {
            return;
        }
        try {
            asking.retired.get(cancelWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // left to the check below, which refuses a turn that is still running
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Message stamped(Message m, String taskId, String contextId) {
        return m.toBuilder().setTaskId(taskId).setContextId(contextId).build();
    }

    private void launch(TaskRun run, RequestContext context) {
        turns.execute(() -> {
            Throwable failure = null;
            try {
                executor.execute(context, run);
            } catch (Throwable t) {
                failure = t;
                LOG.warn("task {}: {}", run.taskId(), t.toString());
            }
            try {
                run.finish(failure);
            } finally {
                live.remove(run.taskId(), run);
                run.retired.complete(null);
            }
        });
    }

    // ------------------------------------------------------------------ GetTask, ListTasks

    public Task getTask(GetTaskRequest request) {
        Task task = find(request.getId());
        return withHistory(task, request.hasHistoryLength(), request.getHistoryLength());
    }

    public ListTasksResponse listTasks(ListTasksRequest request) {
        int pageSize = request.hasPageSize() ? request.getPageSize() : DEFAULT_PAGE_SIZE;
        if (pageSize < 1 || pageSize > 100) {
            // PROTOCOL (A2A §3.1.4): pageSize is 1..100; outside is invalid params, not a clamp.
            throw A2aError.INVALID_PARAMS.exception("pageSize must be between 1 and 100, got " + pageSize);
        }
        Instant after = request.hasStatusTimestampAfter()
                ? Instant.ofEpochMilli(Timestamps.toMillis(request.getStatusTimestampAfter())) : null;
        TaskPage page;
        try {
            page = store.list(new TaskQuery(request.getContextId(), request.getStatus(), after, pageSize,
                    request.getPageToken()));
        } catch (IllegalArgumentException e) {
            throw A2aError.INVALID_PARAMS.exception(e.getMessage());
        }
        boolean artifacts = request.hasIncludeArtifacts() && request.getIncludeArtifacts();
        ListTasksResponse.Builder out = ListTasksResponse.newBuilder()
                .setNextPageToken(page.nextPageToken())
                .setPageSize(pageSize)
                .setTotalSize(page.totalSize());
        for (Task t : page.tasks()) {
            Task shown = withHistory(t, request.hasHistoryLength(), request.getHistoryLength());
            // PROTOCOL (A2A §3.1.4): artifacts are omitted entirely unless includeArtifacts is true.
            out.addTasks(artifacts ? shown : shown.toBuilder().clearArtifacts().build());
        }
        return out.build();
    }

    // ------------------------------------------------------------------ CancelTask

    /**
     * PROTOCOL (A2A §3.1.5): a terminal task cannot be canceled (-32002); otherwise the executor is
     * asked, and the answer is the task only once it is CANCELED. A task that does not reach
     * CANCELED within the wait is answered with -32002 too: the caller must not believe a cancel
     * that did not happen.
     */
    public Task cancelTask(CancelTaskRequest request) {
        String id = request.getId();
        TaskRun[] running = new TaskRun[1];
        live.compute(id, (key, run) -> {
            Task stored = store.get(key).orElseThrow(() -> A2aError.TASK_NOT_FOUND.exception("Task not found: " + key));
            if (TaskStates.isTerminal(stored.getStatus().getState())) {
                throw A2aError.TASK_NOT_CANCELABLE.exception("Task " + key + " is already "
                        + TaskStates.label(stored.getStatus().getState()) + " and cannot be canceled");
            }
            if (run == null) {
                // No turn is running (the task is parked waiting for input): the executor is told,
                // and the server ends the task itself since nobody else will publish for it.
                askExecutor(key);
                TaskRun parked = new TaskRun(key, stored.getContextId(), executorName, store, clock, false);
                parked.task(stored);
                parked.status(TaskState.TASK_STATE_CANCELED, parked.agentText("The task was canceled."));
                return null;
            }
            run.requestCancel();
            running[0] = run;
            return run;
        });
        if (running[0] != null) {
            askExecutor(id);
            try {
                running[0].settled.get(cancelWait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                LOG.warn("task {}: the agent did not stop within {} after a cancel", id, cancelWait);
            } catch (ExecutionException e) {
                // the turn failed; the stored state below decides the answer
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Task after = find(id);
        if (after.getStatus().getState() != TaskState.TASK_STATE_CANCELED) {
            throw A2aError.TASK_NOT_CANCELABLE.exception("Task " + id + " did not stop: it is "
                    + TaskStates.label(after.getStatus().getState()));
        }
        return after;
    }

    private void askExecutor(String id) {
        try {
            executor.cancel(id);
        } catch (RuntimeException e) {
            LOG.warn("task {}: the agent's cancel failed: {}", id, e.toString());
        }
    }

    // ------------------------------------------------------------------ SubscribeToTask

    public Subscription subscribeToTask(SubscribeToTaskRequest request) {
        requireStreaming();
        Task task = find(request.getId());
        if (TaskStates.isTerminal(task.getStatus().getState())) {
            // PROTOCOL (A2A §3.1.6): subscribing to a terminal task is an unsupported operation.
            throw A2aError.UNSUPPORTED_OPERATION.exception("Task " + task.getId() + " is "
                    + TaskStates.label(task.getStatus().getState()) + "; there is nothing left to stream");
        }
        TaskRun run = live.get(task.getId());
        if (run != null) {
            // PROTOCOL (A2A §3.1.6): the first event is a snapshot of the task, then the live events.
            return run.subscribeWithSnapshot(t -> t);
        }
        // PEER (@a2a-js/sdk 1.2.0): with no turn running, the snapshot is sent and the stream closes.
        TaskRun idle = new TaskRun(task.getId(), task.getContextId(), executorName, store, clock, false);
        Subscription s = idle.subscribe();
        s.offer(StreamResponse.newBuilder().setTask(task).build());
        s.end();
        return s;
    }

    // ------------------------------------------------------------------ capabilities

    private void requireStreaming() {
        if (!card.getCapabilities().getStreaming()) {
            throw A2aError.UNSUPPORTED_OPERATION.exception("this agent does not stream (capabilities.streaming is false)");
        }
    }

    /** PROTOCOL (A2A §3.3.4): every push-notification method answers -32003 without the capability. */
    public A2aException pushNotSupported() {
        return A2aError.PUSH_NOTIFICATION_NOT_SUPPORTED.exception(
                "this agent does not send push notifications (capabilities.pushNotifications is false)");
    }

    /** PROTOCOL (A2A §3.1.11, §3.3.4): without capabilities.extendedAgentCard there is none to get. */
    public AgentCard extendedAgentCard() {
        if (!card.getCapabilities().getExtendedAgentCard()) {
            throw A2aError.UNSUPPORTED_OPERATION.exception(
                    "this agent has no extended agent card (capabilities.extendedAgentCard is false)");
        }
        throw A2aError.EXTENDED_AGENT_CARD_NOT_CONFIGURED.exception("no extended agent card is configured");
    }

    // ------------------------------------------------------------------ helpers

    private Task find(String id) {
        if (id.isEmpty()) {
            throw A2aError.INVALID_PARAMS.exception("params.id (the task id) is required");
        }
        return store.get(id).orElseThrow(() -> A2aError.TASK_NOT_FOUND.exception("Task not found: " + id));
    }

    /**
     * PROTOCOL (A2A §3.2.4): historyLength unset keeps the whole history, 0 (or less, as the JSON-RPC
     * binding of the JS SDK reads it) none, N the last N.
     */
    static Task withHistory(Task task, boolean has, int length) {
        if (!has || length >= task.getHistoryCount()) {
            return task;
        }
        if (length <= 0) {
            return task.toBuilder().clearHistory().build();
        }
        List<Message> all = task.getHistoryList();
        return task.toBuilder().clearHistory().addAllHistory(all.subList(all.size() - length, all.size())).build();
    }

    private static A2aException asA2a(Throwable t) {
        if (t instanceof A2aException a) {
            return a;
        }
        return A2aError.INTERNAL.exception("internal error");
    }
}
