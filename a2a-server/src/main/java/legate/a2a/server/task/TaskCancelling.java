package legate.a2a.server.task;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import legate.a2a.model.A2aError;
import legate.a2a.model.TaskStates;
import legate.a2a.server.AgentExecutor;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * CancelTask (A2A §3.1.5), strictly: a running turn is told through its cancel signal and the
 * answer waits for the task to be CANCELED; a parked task is ended by the server itself.
 *
 * <p>Under the task's lock only the decision is taken (which turn, or the parked task's end);
 * the executor's callbacks and its hook run after the lock is released.
 */
final class TaskCancelling {
    private static final Logger LOG = LoggerFactory.getLogger(TaskCancelling.class);

    private final AgentExecutor executor;
    private final TaskStore store;
    private final TaskReading reading;
    private final LiveTurns live;
    private final Clock clock;
    private final Duration cancelWait;
    private final InstanceGroup group;

    TaskCancelling(AgentExecutor executor, TaskStore store, TaskReading reading, LiveTurns live, Clock clock,
                   Duration cancelWait, InstanceGroup group) {
        this.group = group;
        this.executor = executor;
        this.store = store;
        this.reading = reading;
        this.live = live;
        this.clock = clock;
        this.cancelWait = cancelWait;
    }

    /**
     * PROTOCOL (A2A §3.1.5): a terminal task cannot be canceled (-32002); otherwise the answer is the
     * task only once it is CANCELED. A task that does not reach CANCELED within the wait is answered
     * with -32002 too: the caller must not believe a cancel that did not happen.
     */
    Task cancel(CancelTaskRequest request, String owner) {
        String id = request.getId();
        // Before the running turn is even looked at: another principal's task is not there for the caller.
        StoredTask owned = reading.findWithSeq(id, owner);
        if (!group.alone() && live.get(id) == null) {
            // The instance that runs the task's conversation cancels it: its turn, or the executor's
            // hook for a parked task (the bridge's agent process lives there).
            Task task = owned.task();
            if (!TaskStates.isTerminal(task.getStatus().getState())) {
                group.runnerElsewhere(task.getContextId()).ifPresent(url -> {
                    throw new RunsElsewhere(task.getContextId(), url);
                });
            }
        }
        TaskRun running = live.locked(id, () -> {
            TaskRun run = live.get(id);
            if (run != null && run.requestCancel()) {
                return run;
            }
            StoredTask storedTask = reading.storedWithSeq(id, owner);
            Task stored = storedTask.task();
            if (TaskStates.isTerminal(stored.getStatus().getState())) {
                throw A2aError.TASK_NOT_CANCELABLE.exception("Task " + id + " is already "
                        + TaskStates.label(stored.getStatus().getState()) + " and cannot be canceled");
            }
            // No turn is running (or the last one is over): nobody else will publish for the task.
            TaskEvent canceled = new ParkedTask(storedTask).canceled(clock.instant());
            store.append(canceled, true);
            // PROTOCOL (A2A §3.1.6): a SubscribeToTask stream of the parked task ends with its terminal event.
            live.followers().published(id, canceled.event(), canceled.seq());
            return null;
        });
        if (running == null) {
            parkedTaskCanceled(id);
        } else {
            running.cancel.fire();
            awaitSettled(id, running);
        }
        Task after = reading.find(id, owner);
        if (after.getStatus().getState() != TaskState.TASK_STATE_CANCELED) {
            throw A2aError.TASK_NOT_CANCELABLE.exception("Task " + id + " did not stop: it is "
                    + TaskStates.label(after.getStatus().getState()));
        }
        return after;
    }

    private void awaitSettled(String id, TaskRun running) {
        try {
            running.settled.get(cancelWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("task {}: the agent did not stop within {} after a cancel", id, cancelWait);
        } catch (ExecutionException e) {
            // the turn failed; the stored state decides the answer
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void parkedTaskCanceled(String id) {
        try {
            executor.cancel(id);
        } catch (RuntimeException e) {
            LOG.warn("task {}: the agent's cancel hook failed: {}", id, e.toString());
        }
    }
}
