package legate.store.sqlite;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import org.sqlite.SQLiteConfig;

/**
 * The store's one file and how a connection to it is opened: write-ahead log, {@code synchronous
 * NORMAL}, a busy timeout. Held by one process at a time, through a lock on a file beside it.
 *
 * <p>Why WAL with {@code synchronous=NORMAL}: a commit is a write to the log with no fsync, so it
 * costs microseconds, and it survives the death of the process ({@code kill -9}), which is what
 * the store's contract promises; only a power cut or a kernel crash may lose the last commits.
 * Readers run beside the writer on their own connections and see every commit made before their
 * statement began.
 *
 * <p>Why the lock: the store checks sequence numbers and keeps uncommitted appends in its own
 * memory, so a second process writing the same file would interleave two logs unnoticed. {@code
 * legate agent} and {@code legate bridge} started in one folder would share {@code data/} by
 * default; the second now stops with a message instead.
 */
final class DatabaseFile implements AutoCloseable {
    /**
     * The writer checkpoints itself once the write-ahead log holds this many pages (40 MB), so
     * the log rewinds under a load that never pauses; the {@link Checkpointer} copies most of it before.
     */
    static final int WRITER_CHECKPOINT_PAGES = 10_000;
    /**
     * The writer's page cache, in KiB (SQLite's default is 2 MB). The id and context indexes take
     * their writes on random pages; one not cached is read back from the file first.
     */
    private static final int WRITER_CACHE_KIB = 16 * 1024;

    private final Path path;
    private final Duration busyTimeout;
    private final FileChannel lockChannel;
    private final FileLock lock;

    private DatabaseFile(Path path, Duration busyTimeout, FileChannel lockChannel, FileLock lock) {
        this.path = path;
        this.busyTimeout = busyTimeout;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /** Takes the file for this process; another process (or store) holding it is refused with a clear message. */
    static DatabaseFile claim(Path path, Duration busyTimeout) {
        Path lockPath = path.resolveSibling(path.getFileName() + ".lock");
        FileChannel channel = null;
        try {
            channel = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw inUse(path);
            }
            return new DatabaseFile(path, busyTimeout, channel, lock);
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw inUse(path);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new SqliteStoreException("cannot lock " + lockPath + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    private static IllegalStateException inUse(Path path) {
        return new IllegalStateException(path + " is in use by another Legate process (or another store in this one);"
                + " give each process its own DATA_DIR");
    }

    Path path() {
        return path;
    }

    /** The one connection that writes: it also creates the file and turns the write-ahead log on. */
    Connection openWriter() throws SQLException {
        SQLiteConfig config = common();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setWalAutocheckpoint(WRITER_CHECKPOINT_PAGES);
        config.setCacheSize(-WRITER_CACHE_KIB);
        return config.createConnection(url());
    }

    /** The connection of the {@link Checkpointer}: it writes the file, never a transaction. */
    Connection openCheckpointer() throws SQLException {
        return common().createConnection(url());
    }

    /** A connection that only reads, beside the writer. */
    Connection openReader() throws SQLException {
        SQLiteConfig config = common();
        config.setReadOnly(true);
        return config.createConnection(url());
    }

    private SQLiteConfig common() {
        SQLiteConfig config = new SQLiteConfig();
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout((int) Math.min(Integer.MAX_VALUE, busyTimeout.toMillis()));
        config.setTempStore(SQLiteConfig.TempStore.MEMORY);
        return config;
    }

    private String url() {
        return "jdbc:sqlite:" + path;
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException e) {
            // The channel's close below releases it too.
        }
        closeQuietly(lockChannel);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close();
        } catch (IOException e) {
            // Closing releases the lock; nothing else depends on it.
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
