package legate.store.sqlite;

/**
 * The SQLite file refused a read or a write (disk full, a lock held too long by another program,
 * an I/O error). The message says what was being done; the cause is the driver's error.
 */
public final class SqliteStoreException extends RuntimeException {
    public SqliteStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
