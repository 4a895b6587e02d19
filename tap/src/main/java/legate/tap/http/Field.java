package legate.tap.http;

/**
 * One header field line as it crossed the wire (RFC 9110 §5): the name in the sender's letter case,
 * the value without the whitespace around it. Both hold the bytes as ISO-8859-1 characters, one
 * character per byte, so they go out again exactly as they came in.
 */
public record Field(String name, String value) {
    /** Field names are case-insensitive (RFC 9110 §5.1). */
    public boolean is(String name) {
        return this.name.equalsIgnoreCase(name);
    }
}
