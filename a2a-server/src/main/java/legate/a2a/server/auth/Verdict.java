package legate.a2a.server.auth;

import legate.a2a.server.Principal;

/** What one credential scheme made of a request's headers. */
public sealed interface Verdict {
    /** The request carries no credential of this scheme. */
    record Absent() implements Verdict {
    }

    /** The credential proves {@code principal}. */
    record Accepted(Principal principal) implements Verdict {
    }

    /**
     * A credential of this scheme that proves nothing: unknown, expired, forged. {@code why} goes to
     * the server's log only, never to the caller.
     */
    record Refused(String why) implements Verdict {
    }
}
