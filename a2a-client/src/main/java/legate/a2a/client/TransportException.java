package legate.a2a.client;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;

/**
 * The HTTP exchange with the agent failed, so there is no answer to read: nothing listens there,
 * the call ran out of time, or the connection broke after the request went out (a stream cut in the
 * middle included). A stream the agent closes cleanly is not one of these: see {@link StreamEnd}.
 */
public final class TransportException extends A2aClientException {
    /** What went wrong with the exchange. */
    public enum Kind {
        /** No connection: refused, unknown host, no route. */
        CONNECT_FAILED,
        /** Connecting, or a call with a bound, took longer than allowed. */
        TIMED_OUT,
        /** The connection broke after the request was sent, before or during the response. */
        CUT,
        /** The calling thread was interrupted while it waited. */
        INTERRUPTED
    }

    private final Kind kind;
    private final URI target;

    public TransportException(Kind kind, URI target, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.target = target;
    }

    public Kind kind() {
        return kind;
    }

    public URI target() {
        return target;
    }

    /** Classifies an I/O failure of the JDK HttpClient talking to {@code target}. */
    public static TransportException of(IOException e, URI target) {
        if (e instanceof HttpConnectTimeoutException) {
            return new TransportException(Kind.TIMED_OUT, target, "connecting to " + target + " timed out", e);
        }
        if (e instanceof HttpTimeoutException) {
            return new TransportException(Kind.TIMED_OUT, target, "no answer from " + target + " in time", e);
        }
        if (e instanceof ConnectException) {
            String why = hasCause(e, UnresolvedAddressException.class) ? "unknown host"
                    : e.getMessage() == null || e.getMessage().isBlank() ? "connection refused" : e.getMessage();
            return new TransportException(Kind.CONNECT_FAILED, target, "cannot connect to " + target + ": " + why, e);
        }
        String detail = e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName() : e.getMessage();
        return new TransportException(Kind.CUT, target, "the connection to " + target + " broke: " + detail, e);
    }

    private static boolean hasCause(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }
}
