package legate.a2a.server.task;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The turns running now, by task id, and the lock of each task that orders the three things that
 * may change who speaks for a task: a reply starting the next turn, a cancel, and a turn ending
 * (see {@link TaskRun#requestCancel}). Sending, cancelling and subscribing share one registry.
 *
 * <p>The lock is held across the store read and the decision, never inside a map's compute: the
 * maps' own atomic updates only count holders. A lock exists only while someone holds or waits for
 * it, so a server that has seen a million tasks keeps no lock for them.
 *
 * <p>The SubscribeToTask streams that outlive a turn ({@link Followers}) are kept here too: every
 * turn hands its events to them, and they end when the server stops.
 */
final class LiveTurns {
    private final Map<String, TaskRun> running = new ConcurrentHashMap<>();
    private final Map<String, TaskLock> locks = new ConcurrentHashMap<>();
    private final Followers followers = new Followers();
    private volatile boolean closed;
    private volatile boolean draining;
    /** Notified when the last running turn retires, for {@link #awaitIdle}. */
    private final Object idle = new Object();

    /** The task's running turn, or null; a turn stays here until it has retired. */
    TaskRun get(String taskId) {
        return running.get(taskId);
    }

    /** The streams that follow tasks across their turns. */
    Followers followers() {
        return followers;
    }

    void started(TaskRun run) {
        run.followedBy(followers);
        running.put(run.taskId(), run);
        if (closed) {
            run.abandon();
        }
    }

    /** {@code withdrawn} never ran: {@code previous}, whose execution it was to continue, is the task's turn again. */
    void putBack(TaskRun withdrawn, TaskRun previous) {
        running.replace(withdrawn.taskId(), withdrawn, previous);
    }

    /**
     * Abandons every running turn, and every one started from now on, and ends every stream that
     * follows a task: the server is stopping.
     */
    void close() {
        closed = true;
        for (TaskRun run : running.values()) {
            run.abandon();
        }
        followers.close();
    }

    /**
     * Running or retiring turns, task locks in use and streams following a task: zero once every
     * turn has retired, no call waits on a task and no subscriber waits for one.
     */
    int held() {
        return running.size() + locks.size() + followers.count();
    }

    void retired(TaskRun run) {
        running.remove(run.taskId(), run);
        if (draining && running.isEmpty()) {
            synchronized (idle) {
                idle.notifyAll();
            }
        }
    }

    /** From now on no turn starts: the server is draining before it stops. */
    void drain() {
        draining = true;
    }

    /** @throws ServerStopping once the server drains */
    void admit() {
        if (draining) {
            throw new ServerStopping();
        }
    }

    /** Waits until no turn runs, for {@code max} at most; whether none runs. */
    boolean awaitIdle(Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        synchronized (idle) {
            while (!running.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(idle, left);
            }
            return true;
        }
    }

    /** Runs {@code action} holding the task's lock; what it throws reaches the caller. */
    <T> T locked(String taskId, Supplier<T> action) {
        TaskLock lock = locks.compute(taskId, (id, held) -> (held == null ? new TaskLock() : held).join());
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
            locks.computeIfPresent(taskId, (id, held) -> held.leave() ? null : held);
        }
    }

    /** A task's lock and how many threads hold or wait for it; the count is changed only inside the map's update. */
    private static final class TaskLock extends ReentrantLock {
        private int users;

        TaskLock join() {
            users++;
            return this;
        }

        /** True when nobody else holds or waits for the lock, so it can go. */
        boolean leave() {
            return --users == 0;
        }
    }
}
