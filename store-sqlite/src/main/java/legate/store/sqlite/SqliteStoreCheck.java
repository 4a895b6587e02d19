package legate.store.sqlite;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.sqlite.SQLiteConfig;

/**
 * What {@code legate doctor} reports about a SQLite store before a server opens it, without
 * changing it: whether the file exists, its schema version against this build's, and whether a
 * running Legate holds it (then another cannot open it).
 *
 * @param file the store's file
 * @param exists whether it exists (a missing one is created at start, which needs a writable folder)
 * @param version the file's schema version, 0 when it does not exist
 * @param latest the version this build migrates to
 * @param inUse whether another process holds the store's lock
 * @param problem why the store cannot be used, or null
 */
public record SqliteStoreCheck(Path file, boolean exists, int version, int latest, boolean inUse, String problem) {

    public static SqliteStoreCheck of(Path dataDir) {
        Path file = dataDir.resolve(SqliteTaskStore.FILE_NAME).toAbsolutePath();
        int latest = Schema.CURRENT.latest();
        if (!Files.exists(file)) {
            Path folder = file.getParent();
            while (folder != null && !Files.exists(folder)) {
                folder = folder.getParent();
            }
            String problem = folder == null || !Files.isDirectory(folder) || !Files.isWritable(folder)
                    ? "cannot create " + file + ": " + folder + " is not a writable folder" : null;
            return new SqliteStoreCheck(file, false, 0, latest, false, problem);
        }
        boolean inUse = locked(file.resolveSibling(file.getFileName() + ".lock"));
        SQLiteConfig config = new SQLiteConfig();
        config.setReadOnly(true);
        try (Connection c = config.createConnection("jdbc:sqlite:" + file); Statement s = c.createStatement()) {
            int applicationId = pragma(s, "application_id");
            int version = pragma(s, "user_version");
            String problem = null;
            if (applicationId != Schema.APPLICATION_ID && version != 0) {
                problem = file + " is a SQLite file but not a Legate task store";
            } else if (version > latest) {
                problem = file + " has schema version " + version + ", newer than the " + latest
                        + " this Legate knows: a newer Legate wrote it";
            } else if (!Files.isWritable(file)) {
                problem = file + " is not writable";
            }
            return new SqliteStoreCheck(file, true, version, latest, inUse, problem);
        } catch (SQLException e) {
            return new SqliteStoreCheck(file, true, 0, latest, inUse, "cannot read " + file + ": " + e.getMessage());
        }
    }

    private static int pragma(Statement s, String name) throws SQLException {
        try (ResultSet r = s.executeQuery("PRAGMA " + name)) {
            return r.next() ? r.getInt(1) : 0;
        }
    }

    /** Whether a process holds the lock a store takes on open (never created here). */
    private static boolean locked(Path lockFile) {
        if (!Files.exists(lockFile)) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock lock = ch.tryLock();
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (OverlappingFileLockException e) {
            // This very process holds it.
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
