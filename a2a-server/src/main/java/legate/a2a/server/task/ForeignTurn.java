package legate.a2a.server.task;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A turn that runs on another instance of the agent, resumed here through the shared store: one
 * SubscribeToTask with {@code Last-Event-ID} on this instance gets the task's events after that id
 * as the other instance commits them, each with its sequence number, and the stream closes where
 * the stream it resumes would have closed (the turn's end in the log, read as {@link Replay} reads
 * it). A SubscribeToTask without the header follows the task to its terminal state instead, the
 * same way ({@link TaskFollower}).
 *
 * <p>The store's notifications ({@link InstanceGroup#watch}) only say "there is more"; the events
 * themselves are read from the log after the last one delivered. That read runs under this
 * object's lock, so two notifications close together deliver each event once and in order, and a
 * notification lost with a connection costs nothing once the group has called again.
 */
final class ForeignTurn {
    private static final Logger LOG = LoggerFactory.getLogger(ForeignTurn.class);

    private final TaskStore store;
    private final String taskId;
    private final Subscription subscription;
    private volatile InstanceGroup.Watch watch;
    private volatile boolean over;
    private boolean ready;
    private long lastSeq;

    private ForeignTurn(TaskStore store, String taskId, long after) {
        this.store = store;
        this.taskId = taskId;
        this.lastSeq = after;
        this.subscription = new Subscription(gone -> stop());
    }

    /** SubscribeToTask with Last-Event-ID: the logged events after {@code after}, then the live ones. */
    static Subscription after(TaskStore store, InstanceGroup group, String taskId, long after) {
        ForeignTurn f = new ForeignTurn(store, taskId, after);
        f.start(group);
        return f.subscription;
    }

    private void start(InstanceGroup group) {
        // Watched before the first read: an event committed in between is read by that first read
        // or announced afterwards, and read once either way.
        watch = group.watch(taskId, this::catchUp);
        synchronized (this) {
            ready = true;
        }
        if (over) {
            watch.cancel();
            return;
        }
        catchUp();
    }

    /** Delivers what the log holds after the last event delivered, and ends where the stream closes. */
    private synchronized void catchUp() {
        if (!ready || over) {
            return;
        }
        Replay replay;
        try {
            replay = Replay.read(store, taskId, lastSeq);
        } catch (RuntimeException e) {
            // The store is unreachable for now; the group calls again once it can be read.
            LOG.warn("task {}: could not read the events another instance appended: {}", taskId, e.toString());
            return;
        }
        replay.into(subscription);
        if (!replay.events().isEmpty()) {
            lastSeq = replay.events().get(replay.events().size() - 1).seq();
        }
        if (replay.closes()) {
            subscription.end();
            stop();
        }
    }

    private void stop() {
        over = true;
        InstanceGroup.Watch w = watch;
        if (w != null) {
            w.cancel();
        }
    }
}
