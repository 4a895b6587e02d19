package legate.tap.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes response heads onto one connection (RFC 9112 §4, §5): a status line, field lines, and the
 * blank line that ends the head. It only gathers them in the {@link WireOutput}, so a head leaves in
 * one write with the body bytes already at hand; the caller flushes. Text goes out as ISO-8859-1,
 * one byte per character, so a field read by {@link HeadParser} goes out as the bytes it came in.
 * One writer per connection, used by the connection's thread.
 */
public final class HeadWriter {
    private static final byte[] HTTP11 = "HTTP/1.1 ".getBytes(StandardCharsets.US_ASCII);

    private final WireOutput out;

    public HeadWriter(WireOutput out) {
        this.out = out;
    }

    /** The status line: always HTTP/1.1, the version the tap speaks on every connection. */
    public HeadWriter statusLine(int status, String reason) throws IOException {
        out.write(HTTP11);
        out.decimal(status);
        out.latin1(" ");
        out.latin1(reason);
        out.crlf();
        return this;
    }

    /** One field line, {@code name: value}. */
    public HeadWriter field(String name, String value) throws IOException {
        out.latin1(name);
        out.latin1(": ");
        out.latin1(value);
        out.crlf();
        return this;
    }

    /** One field line with a number for its value, as Content-Length is written. */
    public HeadWriter field(String name, long value) throws IOException {
        out.latin1(name);
        out.latin1(": ");
        out.decimal(value);
        out.crlf();
        return this;
    }

    /** The blank line that ends the head. */
    public void end() throws IOException {
        out.crlf();
    }
}
