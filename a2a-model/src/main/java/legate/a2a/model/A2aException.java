package legate.a2a.model;

/**
 * An A2A or JSON-RPC error on its way to a caller: the {@link A2aError} decides the code, the
 * reason and the HTTP status; the message is written for a person and never holds a stack trace.
 */
public class A2aException extends RuntimeException {
    private final A2aError error;

    public A2aException(A2aError error, String message) {
        super(message, null, false, false);
        this.error = error;
    }

    public A2aError error() {
        return error;
    }
}
