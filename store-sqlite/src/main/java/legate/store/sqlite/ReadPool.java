package legate.store.sqlite;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A few connections that only read, lent to one thread at a time. The write-ahead log lets them
 * read beside the writer, each statement seeing what was committed before it began.
 */
final class ReadPool implements AutoCloseable {
    /** What a read does with its connection. */
    @FunctionalInterface
    interface Read<T> {
        T run(ReadConnection c) throws SQLException;
    }

    private final DatabaseFile file;
    private final BlockingQueue<ReadConnection> idle;
    private final List<ReadConnection> all = new ArrayList<>();
    private volatile boolean closed;

    ReadPool(DatabaseFile file, int size) throws SQLException {
        this.file = file;
        this.idle = new ArrayBlockingQueue<>(size);
        try {
            for (int i = 0; i < size; i++) {
                ReadConnection c = new ReadConnection(file.openReader());
                all.add(c);
                idle.add(c);
            }
        } catch (SQLException e) {
            close();
            throw e;
        }
    }

    /** Runs {@code read} on a connection of the pool, waiting for one to be free. */
    <T> T read(String what, Read<T> read) {
        ReadConnection c = borrow(what);
        try {
            return read.run(c);
        } catch (SQLException e) {
            throw new SqliteStoreException("cannot read " + what + " from " + file + ": " + e.getMessage(), e);
        } finally {
            idle.add(c);
        }
    }

    private ReadConnection borrow(String what) {
        try {
            while (true) {
                if (closed) {
                    throw new IllegalStateException("the task store is closed");
                }
                // Bounded, so a read that races with close() sees it instead of waiting forever.
                ReadConnection c = idle.poll(100, TimeUnit.MILLISECONDS);
                if (c != null) {
                    return c;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to read " + what, e);
        }
    }

    /** Closes every connection, waiting for those lent out to come back. */
    @Override
    public void close() {
        closed = true;
        for (int i = 0; i < all.size(); i++) {
            try {
                idle.take().close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (SQLException e) {
                // The connection is gone either way.
            }
        }
    }
}
