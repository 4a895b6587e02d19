package legate.a2a.server.auth;

import java.util.List;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;

/**
 * A request refused at the edge for want of an accepted credential: HTTP 401, one
 * {@code WWW-Authenticate} challenge per scheme the card declares, and the JSON-RPC error
 * {@link A2aError#UNAUTHENTICATED}. The message says what to send, never whether a given token exists.
 */
public final class Unauthenticated extends A2aException {
    private final transient List<String> challenges;
    private final String why;

    Unauthenticated(String message, List<String> challenges, String why) {
        super(A2aError.UNAUTHENTICATED, message);
        this.challenges = List.copyOf(challenges);
        this.why = why;
    }

    /** What each scheme made of the credential, for the server's log only (never a secret). */
    public String why() {
        return why;
    }

    /** The {@code WWW-Authenticate} values, one per scheme. */
    public List<String> challenges() {
        return challenges;
    }
}
