package legate.tap.http;

import java.util.List;

/**
 * The hop-by-hop header fields of one HTTP/1.1 message (RFC 9110 §7.6.1): they describe a single
 * connection, so a proxy drops them and lets each side of it frame its own connection. Every other
 * field is end-to-end and passes through the tap unchanged.
 */
public final class HopByHopFields {
    // PROTOCOL (RFC 9110 §7.6.1, RFC 9112 §6.1): these always belong to the connection, plus any
    // field the message's Connection header names.
    private static final String[] ALWAYS = {"connection", "proxy-connection", "keep-alive", "te", "trailer",
            "transfer-encoding", "upgrade", "proxy-authenticate", "proxy-authorization"};

    private final List<String> named;

    /** @param fields the message's field lines, whose Connection lines name more hop-by-hop fields */
    public HopByHopFields(List<Field> fields) {
        this.named = Fields.tokens(fields, "Connection");
    }

    public boolean contains(String name) {
        // Compared in place, not lower-cased: this runs for every header of every exchange.
        for (String s : ALWAYS) {
            if (s.equalsIgnoreCase(name)) {
                return true;
            }
        }
        for (String s : named) {
            if (s.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }
}
