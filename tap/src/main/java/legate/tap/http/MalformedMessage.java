package legate.tap.http;

import java.io.IOException;

/**
 * A message the codec will not read any further because it breaks HTTP/1.1's syntax or framing
 * (RFC 9112) or one of the reader's bounds. After one, the connection's next message cannot be
 * found reliably, so the connection is closed.
 *
 * <p>It says who sent the message and what is wrong with it, not what to answer: a proxy answers a
 * client's fault with a 4xx or 5xx of its own and a server's with 502.
 */
public final class MalformedMessage extends IOException {
    /** What is wrong with the message, as far as the answer to it depends on it. */
    public enum Fault {
        /** It breaks a rule of HTTP/1.1's syntax, its framing, or the exchange. */
        INVALID,
        /** Its head, or a line of its head, is longer than the reader's bound. */
        HEAD_TOO_LARGE,
        /** Its body is longer than the reader's bound. */
        BODY_TOO_LARGE,
        /** It needs a transfer coding the reader does not decode. */
        UNSUPPORTED_CODING,
        /** It is HTTP, but of a major version other than 1. */
        UNSUPPORTED_VERSION
    }

    private final Sender sender;
    private final Fault fault;

    public MalformedMessage(Sender sender, Fault fault, String reason) {
        super(reason, null);
        this.sender = sender;
        this.fault = fault;
    }

    /** Who sent the message: a client's request or a server's response. */
    public Sender sender() {
        return sender;
    }

    public Fault fault() {
        return fault;
    }
}
