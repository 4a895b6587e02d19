package legate.tap.http;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A response body on its way to the client, framed for the client's connection: as it is when the
 * head announced its length (or the connection's end delimits it), or in chunks of the sizes the
 * agent's bytes arrive in. {@link #flush()} sends what is gathered; {@link #finish()} ends the body.
 */
public final class BodyOutput extends OutputStream {
    private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};

    private final WireOutput out;
    private final boolean chunked;

    /** @param chunked whether the body goes out in chunks (RFC 9112 §7.1), else as it is */
    public BodyOutput(WireOutput out, boolean chunked) {
        this.out = out;
        this.chunked = chunked;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            // PROTOCOL (RFC 9112 §7.1): a chunk of size 0 is the last one; an empty write is no chunk.
            return;
        }
        if (chunked) {
            out.hex(len);
            out.crlf();
            out.write(b, off, len);
            out.crlf();
        } else {
            out.write(b, off, len);
        }
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** Ends the body (the last chunk, when chunked) and sends what is left. */
    public void finish() throws IOException {
        if (chunked) {
            out.write(LAST_CHUNK);
        }
        out.flush();
    }
}
