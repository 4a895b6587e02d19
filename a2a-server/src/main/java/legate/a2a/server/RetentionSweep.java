package legate.a2a.server;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.task.TaskStore;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retention (TASK_RETENTION): deletes the terminal tasks whose last status change is older than the
 * retention, with their logs, on the server's scheduler every min(retention / 10, 1 minute). A
 * finished task is therefore kept at least the retention and at most a tenth (or a minute) longer.
 * Tasks that are not terminal are never deleted: they run, or wait for a reply.
 *
 * <p>A sweep and {@link #close()} exclude each other, so the store is never swept once closing begins.
 */
final class RetentionSweep implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RetentionSweep.class);
    private static final Duration LONGEST_INTERVAL = Duration.ofMinutes(1);

    private final TaskStore store;
    private final Clock clock;
    private final Duration retention;
    private final Scheduler scheduler;
    private boolean closed;

    /** @param retention zero keeps every task: nothing is ever scheduled */
    RetentionSweep(TaskStore store, Clock clock, Duration retention, Scheduler scheduler) {
        this.store = store;
        this.clock = clock;
        this.retention = retention;
        this.scheduler = scheduler;
    }

    /** How often a retention is swept: a tenth of it, a minute at most, a millisecond at least. */
    static Duration interval(Duration retention) {
        Duration tenth = retention.dividedBy(10);
        if (tenth.compareTo(LONGEST_INTERVAL) > 0) {
            return LONGEST_INTERVAL;
        }
        return tenth.toMillis() < 1 ? Duration.ofMillis(1) : tenth;
    }

    /** Schedules the first sweep, unless the retention is zero. */
    void start() {
        if (!retention.isZero()) {
            schedule();
        }
    }

    /** Deletes what the retention no longer covers; returns how many tasks. */
    synchronized int sweep() {
        if (closed) {
            return 0;
        }
        return store.deleteTerminalBefore(clock.instant().minus(retention));
    }

    private void sweepAndReschedule() {
        try {
            int deleted = sweep();
            if (deleted > 0) {
                LOG.debug("retention: deleted {} task(s) finished more than {} ago", deleted, retention);
            }
        } catch (RuntimeException e) {
            // A failed sweep is retried at the next one; the tasks it missed are deleted then.
            LOG.warn("retention: the sweep failed: {}", e.toString());
        }
        schedule();
    }

    private void schedule() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        try {
            scheduler.schedule(this::sweepAndReschedule, interval(retention).toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // The server is stopping; so is its retention.
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
    }
}
