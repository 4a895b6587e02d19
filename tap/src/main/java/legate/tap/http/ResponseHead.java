package legate.tap.http;

import java.util.List;

/**
 * The status line and header section of one response (RFC 9112 §4, §5), as the agent sent them.
 *
 * @param reason the reason phrase, passed on as it came (it may be empty)
 */
public record ResponseHead(String version, int status, String reason, List<Field> fields) {
    /** The first value of the named field, or null. */
    public String first(String name) {
        return Fields.first(fields, name);
    }

    /** Whether the agent ends the connection after this response (RFC 9112 §9.3). */
    public boolean closesConnection() {
        if (version.equals("HTTP/1.1")) {
            return Fields.hasToken(fields, "Connection", "close");
        }
        // PROTOCOL (RFC 9112 §9.3): an HTTP/1.0 connection persists only when it says keep-alive.
        return !Fields.hasToken(fields, "Connection", "keep-alive");
    }
}
