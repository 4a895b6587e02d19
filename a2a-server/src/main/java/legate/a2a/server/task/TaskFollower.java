package legate.a2a.server.task;

import java.util.List;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One SubscribeToTask without {@code Last-Event-ID}, followed to the task's terminal state.
 * PROTOCOL (A2A §3.1.6): the stream starts with the task and "MUST terminate when the task reaches
 * a terminal state", so it stays open across INPUT_REQUIRED and AUTH_REQUIRED and goes on with the
 * turns the replies start, wherever they run (docs/peers.md §3: the JS SDK closes instead).
 *
 * <p>A turn's events come from whoever appends them: this instance's turn ({@link TaskRun#publish}),
 * the server ending a parked task ({@link TaskCancelling}), or another instance of the group (its
 * commits announced through {@link InstanceGroup#watch}, which only say "there is more"). Each
 * arrives with its sequence number and is delivered once, in order: a number already delivered is
 * dropped, and a gap is filled from the task's log, which holds every event before it is offered.
 * So the sources need no order among themselves, and the snapshot can be read before this follower
 * is registered anywhere: what was appended in between is read from the log once it is.
 *
 * <p>It holds no thread: while the task waits for a reply it is an entry in {@link Followers} and,
 * in a group, a watch; both go as soon as its reader cancels (a client gone) or the stream ends.
 */
final class TaskFollower {
    private static final Logger LOG = LoggerFactory.getLogger(TaskFollower.class);

    private final TaskStore store;
    private final String taskId;
    private final Followers followers;
    private final Subscription subscription;
    private volatile InstanceGroup.Watch watch;
    private volatile boolean over;
    /** The number of the last event delivered (the snapshot's, first); guarded by this. */
    private long lastSeq;

    private TaskFollower(TaskStore store, Followers followers, StoredTask stored) {
        this.store = store;
        this.taskId = stored.task().getId();
        this.followers = followers;
        this.lastSeq = stored.lastSeq();
        this.subscription = new Subscription(gone -> stop());
    }

    /**
     * The subscription of a task that is not terminal: its snapshot (with the number of the latest
     * event it shows), then every event after it, across turns, up to the terminal one.
     */
    static Subscription follow(TaskStore store, Followers followers, InstanceGroup group, StoredTask stored) {
        TaskFollower f = new TaskFollower(store, followers, stored);
        f.subscription.offer(StreamResponse.newBuilder().setTask(stored.task()).build(), stored.lastSeq());
        if (!followers.add(f)) {
            // The server is stopping: the stream ends cleanly after the snapshot, as the open ones do.
            f.subscription.end();
            return f.subscription;
        }
        f.watch = group.watch(f.taskId, f::catchUp);
        if (f.over) {
            f.watch.cancel();
            return f.subscription;
        }
        f.caughtUpWithTheStore();
        return f.subscription;
    }

    String taskId() {
        return taskId;
    }

    /** An event as its publisher delivers it, with its number in the task's log. */
    synchronized void published(StreamResponse event, long seq) {
        if (over || seq <= lastSeq) {
            return;
        }
        if (seq > lastSeq + 1) {
            // Appended before this follower was registered, or by another instance: the log has them.
            catchUp();
            return;
        }
        deliver(event, seq);
    }

    /** Delivers what the log holds after the last event delivered; up to the terminal one. */
    synchronized void catchUp() {
        if (over) {
            return;
        }
        List<LoggedEvent> events;
        try {
            events = store.eventsAfter(taskId, lastSeq);
        } catch (RuntimeException e) {
            // The store is unreachable for now: the next event, or the group's next call, reads again.
            LOG.warn("task {}: could not read the events after {} for a subscriber: {}", taskId, lastSeq, e.toString());
            return;
        }
        for (LoggedEvent e : events) {
            if (over) {
                return;
            }
            if (e.seq() == lastSeq + 1) {
                deliver(e.event(), e.seq());
            }
        }
    }

    /** The server is stopping: the stream ends cleanly here (a client may resume it elsewhere with its last id). */
    void end() {
        subscription.end();
        stop();
    }

    /**
     * Once registered: whatever was appended since the snapshot was read is delivered, and a task
     * gone meanwhile ends the stream. A task is deleted only after it is terminal (retention, the
     * memory store's bound), and that event may have been the one this follower came too late for.
     */
    private synchronized void caughtUpWithTheStore() {
        if (over) {
            return;
        }
        StoredTask now;
        try {
            now = store.load(taskId).orElse(null);
        } catch (RuntimeException e) {
            LOG.warn("task {}: could not read it for a subscriber: {}", taskId, e.toString());
            return;
        }
        if (now == null) {
            end();
        } else if (now.lastSeq() > lastSeq) {
            catchUp();
        }
    }

    private void deliver(StreamResponse event, long seq) {
        subscription.offer(event, seq);
        lastSeq = seq;
        if (TaskStates.isTerminal(stateOf(event))) {
            end();
        }
    }

    private static TaskState stateOf(StreamResponse event) {
        return switch (event.getPayloadCase()) {
            case TASK -> event.getTask().getStatus().getState();
            case STATUS_UPDATE -> event.getStatusUpdate().getStatus().getState();
            case ARTIFACT_UPDATE, MESSAGE, PAYLOAD_NOT_SET -> TaskState.TASK_STATE_UNSPECIFIED;
        };
    }

    /** Leaves the registry and the group; never waits for a publisher (a reader may cancel on any thread). */
    private void stop() {
        over = true;
        followers.remove(this);
        InstanceGroup.Watch w = watch;
        if (w != null) {
            w.cancel();
        }
    }
}
