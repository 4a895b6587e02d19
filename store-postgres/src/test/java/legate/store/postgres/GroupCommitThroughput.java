package legate.store.postgres;

import static legate.store.postgres.TestTasks.artifact;
import static legate.store.postgres.TestTasks.moved;
import static legate.store.postgres.TestTasks.opened;
import static legate.store.postgres.TestTasks.status;
import static legate.store.postgres.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.TaskQuery;
import legate.a2a.server.task.TaskStore;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A throughput program, not a test: 64 threads each run N turns of 5 events against the
 * PostgreSQL store (four appends, then a durable one, as a task's run appends them) and it prints
 * events per second, turns per second and how many events each WAL flush carried. The in-memory
 * store runs the same load first, for scale. Its name keeps it out of the normal test run; run it
 * with
 *
 * <pre>
 * ./mvnw -B -ntp -q -pl store-postgres -am test -Dtest=GroupCommitThroughput \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dthroughput.tasks=300 [-Dthroughput.fsync=off]
 * </pre>
 *
 * <p>The server runs with fsync on unless told otherwise, so a durable commit costs what it costs
 * in production on this disk.
 */
@EnabledIfSystemProperty(named = "throughput.tasks", matches = "\\d+")
class GroupCommitThroughput {
    private static final int THREADS = 64;
    private static final int EVENTS_PER_TURN = 5;

    @Test
    void print() throws Exception {
        int tasks = Integer.getInteger("throughput.tasks");
        boolean fsync = !"off".equals(System.getProperty("throughput.fsync"));
        try (TaskStore memory = new InMemoryTaskStore()) {
            run("memory (warm-up)", memory, "warm", Math.max(10, tasks / 10));
            report("memory", run("memory", memory, "m", tasks), tasks, -1);
        }
        try (PostgresServer server = PostgresServer.start(fsync)) {
            DatabaseUrl url = server.freshDatabase();
            int warm = Math.max(10, tasks / 10);
            try (PostgresTaskStore store = PostgresTaskStore.open(url)) {
                run("postgres (warm-up)", store, "warm", warm);
            }
            // A backend reports its WAL statistics when it exits: each figure is read with the pool closed.
            long syncsBefore = walSyncs(url);
            long nanos;
            try (PostgresTaskStore store = PostgresTaskStore.open(url)) {
                nanos = run("postgres", store, "p", tasks);
                assertThat(store.list(new TaskQuery("", TaskState.TASK_STATE_COMPLETED, null, 1, "")).totalSize())
                        .isEqualTo(THREADS * (tasks + warm));
            }
            report("postgres, fsync " + (fsync ? "on" : "off"), nanos, tasks, walSyncs(url) - syncsBefore);
            System.out.println("server: " + setting(url, "fsync") + " fsync, " + setting(url, "wal_sync_method")
                    + ", synchronous_commit " + setting(url, "synchronous_commit"));
        }
    }

    /** Runs the load and returns its wall time in nanoseconds. */
    private static long run(String name, TaskStore store, String prefix, int tasks) throws InterruptedException {
        List<Thread> threads = new ArrayList<>(THREADS);
        long start = System.nanoTime();
        for (int w = 0; w < THREADS; w++) {
            String worker = prefix + w + "-";
            threads.add(Thread.ofVirtual().start(() -> {
                for (int i = 0; i < tasks; i++) {
                    Task t = task(worker + i, TaskState.TASK_STATE_SUBMITTED);
                    Task working = moved(t, TaskState.TASK_STATE_WORKING, 1);
                    store.append(opened(1, t), false);
                    store.append(status(2, working), false);
                    store.append(artifact(3, working, "one"), false);
                    store.append(artifact(4, working, "two"), false);
                    store.append(status(5, moved(t, TaskState.TASK_STATE_COMPLETED, 2)), true);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        return System.nanoTime() - start;
    }

    private static void report(String name, long nanos, int tasks, long walSyncs) {
        double seconds = nanos / 1e9;
        long turns = (long) THREADS * tasks;
        long events = turns * EVENTS_PER_TURN;
        System.out.printf(Locale.ROOT, "%-26s %d threads x %d turns x %d events: %,.0f events/s, %,.0f turns/s (%.2f s)%s%n",
                name, THREADS, tasks, EVENTS_PER_TURN, events / seconds, turns / seconds, seconds,
                walSyncs < 0 ? "" : String.format(Locale.ROOT, ", %d WAL syncs, %.1f events per sync",
                        walSyncs, walSyncs == 0 ? 0.0 : (double) events / walSyncs));
    }

    private static long walSyncs(DatabaseUrl url) throws SQLException {
        return Long.parseLong(query(url, "SELECT wal_sync FROM pg_stat_wal"));
    }

    private static String setting(DatabaseUrl url, String name) throws SQLException {
        return query(url, "SELECT current_setting('" + name + "')");
    }

    private static String query(DatabaseUrl url, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(url.jdbcUrl(), url.user(), url.password());
             Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
