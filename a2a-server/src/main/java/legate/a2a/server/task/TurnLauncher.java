package legate.a2a.server.task;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import legate.a2a.model.A2aError;
import legate.a2a.model.TaskStates;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.RequestContext;
import legate.a2a.server.observe.ServerMetrics;
import legate.wire.trace.Tracing;
import lf.a2a.v1.Message;
import lf.a2a.v1.SendMessageConfiguration;
import lf.a2a.v1.Task;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the executor's turns: the first turn of a new task, or the next turn of a task parked in
 * INPUT_REQUIRED or AUTH_REQUIRED, each on its own virtual thread, and retires a turn when its
 * executor returns.
 *
 * <p>Opening and launching are two steps, so that a streaming caller can subscribe in between and
 * miss nothing. An opened turn is already live: a cancel finds it, and its executor will see that
 * cancel however early it came.
 */
final class TurnLauncher {
    private static final Logger LOG = LoggerFactory.getLogger(TurnLauncher.class);

    /**
     * A turn opened but not yet launched, and what its executor will be told.
     *
     * @param answers the turn whose execution waits for this reply ({@link TaskRun#awaitReply}); null when
     *     the turn starts an execution of its own
     */
    record Turn(TaskRun run, RequestContext context, TaskRun answers) {
    }

    private final AgentExecutor executor;
    private final String executorName;
    private final TaskStore store;
    private final TaskReading reading;
    private final Clock clock;
    private final Supplier<String> ids;
    private final Duration retireWait;
    private final ExecutorService turns;
    private final LiveTurns live;
    private final InstanceGroup group;
    private final TurnQuota quota;
    private final ServerMetrics metrics;
    private final Tracing tracing;

    TurnLauncher(AgentExecutor executor, TaskStore store, TaskReading reading, Clock clock, Supplier<String> ids,
                 Duration retireWait, ExecutorService turns, LiveTurns live, InstanceGroup group, TurnQuota quota,
                 ServerMetrics metrics, Tracing tracing) {
        this.group = group;
        this.quota = quota;
        this.metrics = metrics;
        this.tracing = tracing;
        this.executor = executor;
        this.executorName = executor.getClass().getSimpleName();
        this.store = store;
        this.reading = reading;
        this.clock = clock;
        this.ids = ids;
        this.retireWait = retireWait;
        this.turns = turns;
        this.live = live;
    }

    /**
     * Finds or creates the task identity of a validated message and opens its turn, as
     * {@code owner}'s: a new task (and a new conversation) is theirs, and only their own task or
     * conversation can be continued.
     */
    Turn open(Message message, SendMessageConfiguration configuration, boolean answersWithFirstEvent, String owner) {
        live.admit();
        if (message.getTaskId().isEmpty()) {
            String contextId = message.getContextId().isEmpty() ? ids.get() : message.getContextId();
            if (!message.getContextId().isEmpty()) {
                requireOwnConversation(contextId, owner);
            }
            // A new context is leased by the instance that receives it; a known one runs where it lives.
            runsHere(contextId);
            TurnQuota.Place place = quota.acquire(owner);
            String taskId = ids.get();
            TaskRun run = new TaskRun(taskId, contextId, owner, executorName, store, clock, true, 0,
                    answersWithFirstEvent, place, metrics);
            live.started(run);
            return turn(run, message, null, configuration, null);
        }
        String taskId = message.getTaskId();
        // Before anything else looks at the task: another principal's task is not there for this caller.
        StoredTask owned = reading.storedWithSeq(taskId, owner);
        if (!group.alone() && live.get(taskId) == null) {
            // A reply into a task continues the conversation where it lives.
            runsHere(owned.task().getContextId());
        }
        awaitQuestionTurn(taskId);
        return live.locked(taskId, () -> {
            // Looked at before the store: a turn found over has already stored its last state.
            TaskRun previous = live.get(taskId);
            boolean stillRunning = previous != null && !previous.isOver();
            StoredTask storedTask = reading.storedWithSeq(taskId, owner);
            Task stored = storedTask.task();
            if (TaskStates.isTerminal(stored.getStatus().getState())) {
                // PROTOCOL (A2A §3.1.1): a terminal task accepts no further messages.
                throw A2aError.UNSUPPORTED_OPERATION.exception("Task " + taskId + " is "
                        + TaskStates.label(stored.getStatus().getState()) + " and cannot accept more messages");
            }
            if (!message.getContextId().isEmpty() && !message.getContextId().equals(stored.getContextId())) {
                // PROTOCOL (A2A §3.4.3): a contextId that contradicts its task MUST be rejected.
                throw A2aError.INVALID_PARAMS.exception("message.contextId " + message.getContextId()
                        + " does not match the contextId of task " + taskId);
            }
            if (previous != null && previous.claimReply()) {
                // The execution that asked goes on: the reply opens the task's next turn, which shares its
                // cancel and its place. DEFECT: the reply was counted against MAX_TASKS_PER_PRINCIPAL after
                // the claim, and a refusal at the limit left the execution waiting for a reply already taken.
                TaskRun run = new TaskRun(taskId, stored.getContextId(), owner, executorName, store, clock, false,
                        storedTask.lastSeq(), false, previous.cancel, previous.place, metrics);
                live.started(run);
                return turn(run, message, stored, configuration, previous);
            }
            if (stillRunning) {
                throw A2aError.UNSUPPORTED_OPERATION.exception("Task " + taskId + " is still "
                        + TaskStates.label(stored.getStatus().getState())
                        + "; send the next message once it asks for input or finishes");
            }
            TurnQuota.Place place = quota.acquire(owner);
            TaskRun run = new TaskRun(taskId, stored.getContextId(), owner, executorName, store, clock, false,
                    storedTask.lastSeq(), false, place, metrics);
            live.started(run);
            return turn(run, message, stored, configuration, null);
        });
    }

    /** Leases the context to this instance, or throws {@link RunsElsewhere} naming the instance that holds it. */
    private void runsHere(String contextId) {
        group.runnerElsewhere(contextId).ifPresent(url -> {
            throw new RunsElsewhere(contextId, url);
        });
    }

    /**
     * A new task in a conversation the caller named: the conversation must be the caller's own, or
     * nobody's yet (then it becomes theirs). Refused before anything runs or is stored: writing
     * into another principal's conversation would put words in their agent's session.
     */
    private void requireOwnConversation(String contextId, String owner) {
        String holder = store.contextOwner(contextId).orElseGet(() -> store.claimContext(contextId, owner));
        if (!holder.equals(owner)) {
            throw A2aError.INVALID_PARAMS.exception("message.contextId " + contextId
                    + " names a conversation this caller cannot write into; leave contextId out to start a new one");
        }
    }

    /**
     * DEFECT: when each executor kept its own map of running turns, a turn registered itself after
     * publishing its Task, and a client that canceled as soon as it learned the task id
     * (returnImmediately) found nothing to stop: the task worked on. The cancel signal is now the
     * run's own, created here before the executor is launched.
     */
    private static Turn turn(TaskRun run, Message message, Task stored, SendMessageConfiguration configuration,
                             TaskRun answers) {
        Message stamped = message.toBuilder().setTaskId(run.taskId()).setContextId(run.contextId()).build();
        return new Turn(run, new RequestContext(run.taskId(), run.contextId(), stamped, stored, configuration,
                run.cancel), answers);
    }

    /**
     * DEFECT: a reply sent the moment INPUT_REQUIRED reached the caller could arrive before the
     * executor that asked the question had returned, and was refused as "still running". The reply
     * now waits (boundedly) for that turn to retire; a turn that is really still working is refused.
     */
    private void awaitQuestionTurn(String taskId) {
        TaskRun asking = live.get(taskId);
        if (asking == null || !asking.askedForInput() || asking.continuesAfterQuestion()) {
            return;
        }
        try {
            asking.retired.get(retireWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // left to the check in open, which refuses a turn that is still running
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * A turn opened but never launched, because its request failed in between (a webhook that could
     * not be registered, say): nothing of it stays behind. Its place is given back, and a reply it
     * claimed goes back to the execution waiting for it, which can then be answered again, time out
     * or be canceled, as if this request had never come.
     */
    void withdraw(Turn turn, Throwable failure) {
        TaskRun run = turn.run();
        live.locked(run.taskId(), () -> {
            if (turn.answers() != null) {
                live.putBack(run, turn.answers());
                turn.answers().giveBackReply();
            } else {
                live.retired(run);
                run.place.giveBack();
            }
            // Settled, so that a cancel that found this turn meanwhile does not wait for it.
            run.finish(failure);
            run.retired.complete(null);
            return null;
        });
    }

    /** Runs the executor on its own virtual thread; whatever it leaves unfinished, the run settles. */
    void launch(Turn turn) {
        TaskRun run = turn.run();
        if (turn.answers() != null) {
            // The executor is already running, waiting for this reply: it goes on in this turn.
            turn.answers().handOver(run, turn.context());
            live.retired(turn.answers());
            turn.answers().retired.complete(null);
            return;
        }
        // The request's span (when tracing) is the parent of the turn's; read on the request's thread.
        Context parent = tracing.on() ? Context.current() : null;
        turns.execute(() -> {
            Span span = parent == null ? null : tracing.tracer().spanBuilder("task turn").setParent(parent)
                    .setAttribute("a2a.task_id", run.taskId()).setAttribute("a2a.context_id", run.contextId())
                    .startSpan();
            Throwable failure = null;
            try (Scope scope = span == null ? null : span.makeCurrent()) {
                executor.execute(turn.context(), run);
            } catch (Throwable t) {
                failure = t;
                LOG.warn("task {}: {}", run.taskId(), t.toString());
            }
            // An execution that asked questions ends in the turn of the last reply.
            TaskRun last = run.latest();
            try {
                last.finish(failure);
            } finally {
                if (span != null) {
                    span.setAttribute("a2a.task_state", last.endedAs());
                    if (failure != null) {
                        span.setStatus(StatusCode.ERROR, failure.toString());
                    }
                    span.end();
                }
                live.retired(last);
                last.place.giveBack();
                last.retired.complete(null);
            }
        });
    }
}
