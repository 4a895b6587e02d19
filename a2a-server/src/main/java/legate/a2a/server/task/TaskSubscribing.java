package legate.a2a.server.task;

import legate.a2a.model.A2aError;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.Task;

/**
 * SubscribeToTask (A2A §3.1.6): a stream that starts with a snapshot of the task and goes on with
 * the events of its running turn.
 */
final class TaskSubscribing {
    private final TaskReading reading;
    private final LiveTurns live;

    TaskSubscribing(TaskReading reading, LiveTurns live) {
        this.reading = reading;
        this.live = live;
    }

    Subscription subscribe(SubscribeToTaskRequest request) {
        Task task = reading.find(request.getId());
        if (TaskStates.isTerminal(task.getStatus().getState())) {
            // PROTOCOL (A2A §3.1.6): subscribing to a terminal task is an unsupported operation.
            throw A2aError.UNSUPPORTED_OPERATION.exception("Task " + task.getId() + " is "
                    + TaskStates.label(task.getStatus().getState()) + "; there is nothing left to stream");
        }
        TaskRun run = live.get(task.getId());
        if (run != null) {
            // PROTOCOL (A2A §3.1.6): the first event is a snapshot of the task, then the live events.
            return run.subscribeWithSnapshot();
        }
        return Subscription.snapshotOnly(task);
    }
}
