package legate.store.postgres;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.task.InstanceGroup;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fan-out of task events between instances, by PostgreSQL's own LISTEN/NOTIFY: the group
 * commit's statement notifies {@value #CHANNEL} with the id of each task it wrote, delivered by
 * PostgreSQL when (and only if) the transaction commits, and this listener, on one connection of
 * its own, tells the watchers of that task. No broker: the database that holds the events
 * announces them.
 *
 * <p>A notification carries no event, only "task X has more": the watcher reads the log after the
 * last event it delivered. So a notification sent while the listener was disconnected costs
 * nothing once it is connected again: it then tells every watcher once, and each reads what it
 * missed.
 *
 * <p>Watchers are called on virtual threads, one per call, so a slow reader never holds up the
 * notifications of other tasks.
 */
final class EventNotifications implements AutoCloseable {
    static final String CHANNEL = "legate_events";
    private static final Logger LOG = LoggerFactory.getLogger(EventNotifications.class);
    /** How long one wait for notifications lasts: the longest {@link #close} waits for the thread. */
    private static final int POLL_MS = 250;
    private static final long MAX_BACKOFF_MS = 2000;

    private final HikariDataSource dataSource;
    private final Map<String, Set<Runnable>> watchers = new ConcurrentHashMap<>();
    private final ExecutorService calls = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("legate-postgres-notified-", 0).factory());
    private final Object pause = new Object();
    private final Thread listener;
    private volatile boolean closed;
    private volatile int connects;

    EventNotifications(HikariDataSource dataSource) {
        this.dataSource = dataSource;
        this.listener = Thread.ofPlatform().name("legate-postgres-listen").daemon().unstarted(this::run);
    }

    void start() {
        listener.start();
    }

    /** How many times the listener has connected and is listening: 1 after the start, one more per reconnection. */
    int connects() {
        return connects;
    }

    InstanceGroup.Watch watch(String taskId, Runnable appended) {
        // A distinct object per watch, so the same Runnable watched twice is cancelled once per watch.
        Runnable w = appended::run;
        watchers.compute(taskId, (id, set) -> {
            Set<Runnable> s = set == null ? ConcurrentHashMap.newKeySet() : set;
            s.add(w);
            return s;
        });
        return () -> watchers.computeIfPresent(taskId, (id, set) -> {
            set.remove(w);
            return set.isEmpty() ? null : set;
        });
    }

    private void run() {
        long backoff = 100;
        while (!closed) {
            Connection c = null;
            try {
                c = dataSource.getConnection();
                PGConnection pg = c.unwrap(PGConnection.class);
                try (Statement s = c.createStatement()) {
                    s.execute("LISTEN " + CHANNEL);
                }
                connects++;
                // Anything may have been committed while nobody listened: every watcher reads again.
                watchers.keySet().forEach(this::announce);
                backoff = 100;
                while (!closed) {
                    PGNotification[] arrived = pg.getNotifications(POLL_MS);
                    if (arrived != null) {
                        for (PGNotification n : arrived) {
                            announce(n.getParameter());
                        }
                    }
                }
                dataSource.evictConnection(c);
            } catch (SQLException | RuntimeException e) {
                if (c != null) {
                    // Never back to the pool: a connection that was listening may be half dead, and
                    // a LISTEN left on it would follow it to whoever borrows it next.
                    dataSource.evictConnection(c);
                }
                if (closed) {
                    break;
                }
                LOG.warn("lost the PostgreSQL connection that listens for other instances' events ({});"
                        + " reconnecting in {} ms", e.getMessage(), backoff);
                waitBefore(backoff);
                backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
            }
        }
    }

    private void announce(String taskId) {
        Set<Runnable> set = watchers.get(taskId);
        if (set != null) {
            for (Runnable w : set) {
                calls.execute(w);
            }
        }
    }

    private void waitBefore(long ms) {
        synchronized (pause) {
            try {
                pause.wait(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        synchronized (pause) {
            pause.notifyAll();
        }
        if (listener.isAlive()) {
            try {
                listener.join(POLL_MS * 4L);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        calls.shutdown();
        try {
            calls.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
