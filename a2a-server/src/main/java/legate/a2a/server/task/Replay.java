package legate.a2a.server.task;

import java.util.ArrayList;
import java.util.List;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskState;

/**
 * What a resumed stream replays from a task's log: the events after the one the client read last
 * (its {@code Last-Event-ID}), up to where the stream it resumes would have closed, and whether it
 * closes there.
 *
 * <p>The stream resumed is a turn's (SendStreamingMessage's, or an earlier resumed one): it closes
 * after a terminal or INPUT_REQUIRED event (see {@link TaskRun#publish}), so a replay stops after
 * the first one. (A SubscribeToTask without Last-Event-ID follows the task past them, see
 * {@link TaskFollower}; once cut and resumed, it ends as a turn's stream does, which is where
 * Legate's clients stop reading anyway.) One thing the log does not say outright is where a turn
 * begins: a continuation's first event is the Task restating the interrupted state it was parked
 * in, which closes nothing. It is recognised by following an event that left the task
 * interrupted. When that earlier event was itself replayed, the turn being resumed ended before the
 * new one began (AUTH_REQUIRED, which keeps a stream open only until its turn is over), and the
 * replay stops before the new turn.
 *
 * @param events the events to send, in order
 * @param closes true when the stream ends after them: the turn being resumed ended in the log
 */
record Replay(List<LoggedEvent> events, boolean closes) {

    /** The replay after {@code after}, read from the store (with the event {@code after} itself, for its state). */
    static Replay read(TaskStore store, String taskId, long after) {
        return of(after, store.eventsAfter(taskId, Math.max(0, after - 1)));
    }

    /**
     * @param after the id the client read last; 0 replays the whole log
     * @param log the task's events in order from {@code after} on (that event first when it exists)
     */
    static Replay of(long after, List<LoggedEvent> log) {
        List<LoggedEvent> out = new ArrayList<>();
        TaskState state = TaskState.TASK_STATE_UNSPECIFIED;
        boolean stateReplayed = false;
        for (LoggedEvent e : log) {
            StreamResponse event = e.event();
            if (e.seq() <= after) {
                state = stateAfter(event, state);
                continue;
            }
            boolean opensTurn = event.hasTask() && TaskStates.isInterrupted(state);
            if (opensTurn && stateReplayed) {
                return new Replay(List.copyOf(out), true);
            }
            out.add(e);
            TaskState next = stateAfter(event, state);
            stateReplayed |= next != state;
            state = next;
            if (!opensTurn && closesStream(state) && !event.hasArtifactUpdate()) {
                return new Replay(List.copyOf(out), true);
            }
        }
        return new Replay(List.copyOf(out), false);
    }

    /** Offers the events to {@code s}, each with its sequence number. */
    void into(Subscription s) {
        for (LoggedEvent e : events) {
            s.offer(e.event(), e.seq());
        }
    }

    // PEER (@a2a-js/sdk 1.2.0): a stream closes after a terminal or INPUT_REQUIRED update and stays
    // open across AUTH_REQUIRED (A2A §7.6.1).
    private static boolean closesStream(TaskState s) {
        return TaskStates.isTerminal(s) || s == TaskState.TASK_STATE_INPUT_REQUIRED;
    }

    private static TaskState stateAfter(StreamResponse event, TaskState before) {
        return switch (event.getPayloadCase()) {
            case TASK -> event.getTask().getStatus().getState();
            case STATUS_UPDATE -> event.getStatusUpdate().getStatus().getState();
            case ARTIFACT_UPDATE, MESSAGE, PAYLOAD_NOT_SET -> before;
        };
    }
}
