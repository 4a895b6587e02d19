package legate.a2a.server.task;

import legate.a2a.model.A2aError;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;

/**
 * SubscribeToTask (A2A §3.1.6): a stream that starts with a snapshot of the task and follows it,
 * across interrupted states and the turns the replies start, to its terminal state
 * ({@link TaskFollower}); or, with a {@code Last-Event-ID} (Legate's resumable-streams extension,
 * README "Tasks that last"), a stream that picks up where a cut one left off and ends where it
 * would have ended: at the end of that turn.
 */
final class TaskSubscribing {
    private static final int MAX_ECHOED = 32;

    private final TaskReading reading;
    private final TaskStore store;
    private final LiveTurns live;
    private final InstanceGroup group;

    TaskSubscribing(TaskReading reading, TaskStore store, LiveTurns live, InstanceGroup group) {
        this.reading = reading;
        this.store = store;
        this.live = live;
        this.group = group;
    }

    /** -32602 for a Last-Event-ID that names no frame this server could have sent; checked before any place is taken. */
    static void check(String lastEventId) {
        if (lastEventId != null) {
            eventId(lastEventId);
        }
    }

    /** @param lastEventId the Last-Event-ID the caller sent, as sent; null without one */
    Subscription subscribe(SubscribeToTaskRequest request, String lastEventId, String owner) {
        if (lastEventId != null) {
            long after = eventId(lastEventId);
            return resume(reading.find(request.getId(), owner).getId(), after, owner);
        }
        StoredTask stored = reading.findWithSeq(request.getId(), owner);
        Task task = stored.task();
        if (TaskStates.isTerminal(task.getStatus().getState())) {
            // PROTOCOL (A2A §3.1.6): subscribing to a terminal task is an unsupported operation.
            throw A2aError.UNSUPPORTED_OPERATION.exception("Task " + task.getId() + " is "
                    + TaskStates.label(task.getStatus().getState()) + "; there is nothing left to stream");
        }
        // PROTOCOL (A2A §3.1.6): the first event is a snapshot of the task, then its events as they
        // come, wherever its turns run, and the stream "MUST terminate when the task reaches a
        // terminal state", not before: a parked task's stream waits for the reply's turn. PEER
        // (@a2a-js/sdk 1.2.0) closes after the snapshot instead (docs/peers.md §3).
        return TaskFollower.follow(store, live.followers(), group, stored);
    }

    /**
     * Every logged event after {@code after}, then the live ones while the turn being resumed runs.
     * Under the task's lock, so no next turn starts between reading the log and deciding whether
     * there is a live turn to attach to. A terminal task replays what it has (possibly nothing) and
     * closes: the caller asked for what it missed, which is not an unsupported operation.
     */
    private Subscription resume(String taskId, long after, String owner) {
        return live.locked(taskId, () -> {
            TaskRun run = live.get(taskId);
            Subscription attached = run == null ? null : run.resumeAfter(after);
            if (attached != null) {
                return attached;
            }
            StoredTask stored = reading.storedWithSeq(taskId, owner);
            if (after > stored.lastSeq()) {
                // Events lost in a crash, or an id this agent never sent: the snapshot says where the task stands.
                return Subscription.snapshotOnly(stored);
            }
            if (runsOnAnotherInstance(stored.task())) {
                return ForeignTurn.after(store, group, taskId, after);
            }
            Subscription s = Subscription.closed();
            Replay.read(store, taskId, after).into(s);
            s.end();
            return s;
        });
    }

    /**
     * A task SUBMITTED or WORKING with no turn here: in a group, another instance runs it (or ran
     * it, and the group will fail it once that instance is known to be gone); alone, a task the
     * start-up scan is about to fail.
     */
    private boolean runsOnAnotherInstance(Task task) {
        TaskState state = task.getStatus().getState();
        return !group.alone() && (state == TaskState.TASK_STATE_SUBMITTED || state == TaskState.TASK_STATE_WORKING);
    }

    /** The id of an SSE frame this server sent: a non-negative integer, else -32602. */
    private static long eventId(String header) {
        String v = header.trim();
        boolean digits = !v.isEmpty() && v.length() <= 18 && v.chars().allMatch(c -> c >= '0' && c <= '9');
        if (!digits) {
            String shown = v.length() > MAX_ECHOED ? v.substring(0, MAX_ECHOED) + "…" : v;
            throw A2aError.INVALID_PARAMS.exception("Last-Event-ID must be the id of an SSE frame this agent sent"
                    + " (a non-negative integer), got \"" + shown + "\"");
        }
        return Long.parseLong(v);
    }
}
