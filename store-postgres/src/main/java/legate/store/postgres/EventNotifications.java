package legate.store.postgres;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
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
 * its own outside the pool, tells the watchers of that task. No broker: the database that holds the events
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
                c = listeningConnection();
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
                closeQuietly(c);
            } catch (SQLException | RuntimeException e) {
                closeQuietly(c);
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

    /**
     * A connection outside the pool: a listener holds its connection for as long as the instance
     * runs, so taking it from the pool would leave the group commit and the readers one short for
     * good; and a LISTEN must never follow a pooled connection to whoever borrows it next.
     */
    private Connection listeningConnection() throws SQLException {
        Properties props = new Properties();
        if (dataSource.getUsername() != null) {
            props.setProperty("user", dataSource.getUsername());
        }
        if (dataSource.getPassword() != null) {
            props.setProperty("password", dataSource.getPassword());
        }
        props.setProperty("ApplicationName", "legate-listen");
        return DriverManager.getConnection(dataSource.getJdbcUrl(), props);
    }

    private static void closeQuietly(Connection c) {
        if (c != null) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // A listening connection that is already broken has nothing left to release.
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
