package legate.tap;

import java.io.IOException;

/**
 * A message the tap will not read any further because it breaks HTTP/1.1's syntax or framing
 * (RFC 9112). After one, the connection's next message cannot be found reliably, so the
 * connection is closed.
 *
 * @see ErrorReply#malformed(MalformedMessage) the answer a client gets
 */
final class MalformedMessage extends IOException {
    private final int status;

    /**
     * @param status the answer a client's request earns: 400, 431 (head too large), 501 (transfer
     *     coding the tap cannot forward), 505 (HTTP version)
     */
    MalformedMessage(int status, String reason) {
        super(reason, null);
        this.status = status;
    }

    MalformedMessage(String reason) {
        this(400, reason);
    }

    int status() {
        return status;
    }
}
