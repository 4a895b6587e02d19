package legate.store.postgres;

/**
 * The PostgreSQL store could not do what was asked: a commit failed (the event was not stored,
 * and a durable append's caller must not report it), or the database could not be read. The
 * message names the task and the database's own reason; it never holds the connection's password.
 */
public final class PostgresStoreException extends RuntimeException {
    public PostgresStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
