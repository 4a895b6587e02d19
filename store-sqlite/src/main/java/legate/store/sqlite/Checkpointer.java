package legate.store.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Copies committed pages from the write-ahead log into the file, on its own thread and
 * connection, up to forty times a second while commits come in.
 *
 * <p>Why not the writer: with {@code synchronous=NORMAL} a checkpoint is where SQLite calls fsync,
 * twice, and a checkpoint after every 4 MB of log (the default, run by the committing connection)
 * made every durable appender wait for those fsyncs: SendMessage at concurrency 64 lost about a
 * third of its rate to them. Here the writer only notes that it committed. A checkpoint beside the
 * writer cannot rewind the log while commits keep coming, so the writer still checkpoints itself
 * once the log passes {@link DatabaseFile#WRITER_CHECKPOINT_PAGES}, by then with little left to copy.
 */
final class Checkpointer implements Runnable {
    /**
     * The least time between two checkpoints. Short, because under a sustained load the log only
     * rewinds through the writer's own checkpoint, whose two fsyncs every durable appender waits
     * for, and they take as long as the data written since this thread's last fsync: measured
     * under 64 concurrent SendMessage, the writer's longest commit was 105-136 ms at 200 ms
     * between checkpoints, 66-120 ms at 50 ms, 42-58 ms at 20 ms. The fsyncs here cost the
     * writer nothing (the same load with this connection's fsyncs off stalled as often).
     */
    static final Duration INTERVAL = Duration.ofMillis(25);

    private final Connection c;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition due = lock.newCondition();
    private boolean committed;
    private boolean closed;

    Checkpointer(Connection c) {
        this.c = c;
    }

    /** The writer committed a batch. */
    void committed() {
        lock.lock();
        try {
            if (!committed) {
                committed = true;
                due.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Stops after the checkpoint under way, if any. */
    void close() {
        lock.lock();
        try {
            closed = true;
            due.signal();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void run() {
        try (Statement s = c.createStatement()) {
            while (awaitCommit()) {
                try {
                    s.execute("PRAGMA wal_checkpoint(PASSIVE)");
                } catch (SQLException e) {
                    // The next one copies what this one could not; the writer's own is the backstop.
                }
                if (!pause()) {
                    return;
                }
            }
        } catch (SQLException e) {
            // Could not even make a statement: the writer's checkpoints carry on alone.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                c.close();
            } catch (SQLException e) {
                // Closing releases the file either way.
            }
        }
    }

    /** Waits for a commit since the last checkpoint; false once closed. */
    private boolean awaitCommit() throws InterruptedException {
        lock.lock();
        try {
            while (!committed && !closed) {
                due.await();
            }
            committed = false;
            return !closed;
        } finally {
            lock.unlock();
        }
    }

    /** Lets {@link #INTERVAL} pass (commits gather meanwhile); false once closed. */
    private boolean pause() throws InterruptedException {
        lock.lock();
        try {
            long left = INTERVAL.toNanos();
            while (!closed && left > 0) {
                left = due.awaitNanos(left);
            }
            return !closed;
        } finally {
            lock.unlock();
        }
    }
}
