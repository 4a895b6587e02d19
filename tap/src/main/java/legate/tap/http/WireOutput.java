package legate.tap.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * The bytes leaving on one side of an HTTP/1.1 connection, gathered until {@link #flush()} so a head
 * and the body bytes that are already at hand leave in one write. Used by one thread at a time.
 */
public final class WireOutput {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private final WritableByteChannel channel;
    private final byte[] buf;
    private final ByteBuffer view;
    private int length;

    public WireOutput(WritableByteChannel channel, int bufferBytes) {
        this.channel = channel;
        this.buf = new byte[bufferBytes];
        this.view = ByteBuffer.wrap(buf);
    }

    public void write(byte[] b, int off, int len) throws IOException {
        if (len > buf.length - length) {
            flush();
            if (len > buf.length) {
                writeFully(ByteBuffer.wrap(b, off, len));
                return;
            }
        }
        System.arraycopy(b, off, buf, length, len);
        length += len;
    }

    public void write(byte[] b) throws IOException {
        write(b, 0, b.length);
    }

    /** Characters up to U+00FF, one byte each: a head's text read as ISO-8859-1 goes out as its bytes. */
    void latin1(String s) throws IOException {
        int n = s.length();
        if (n > buf.length - length) {
            flush();
            if (n > buf.length) {
                write(s.getBytes(StandardCharsets.ISO_8859_1));
                return;
            }
        }
        for (int i = 0; i < n; i++) {
            buf[length++] = (byte) s.charAt(i);
        }
    }

    void crlf() throws IOException {
        if (buf.length - length < 2) {
            flush();
        }
        buf[length++] = '\r';
        buf[length++] = '\n';
    }

    /** A number in decimal, as a status or a Content-Length is written. */
    void decimal(long n) throws IOException {
        latin1(Long.toString(n));
    }

    /** A chunk size (RFC 9112 §7.1): hex digits, no leading zeros. */
    void hex(long n) throws IOException {
        if (buf.length - length < 16) {
            flush();
        }
        int digits = Math.max(1, (67 - Long.numberOfLeadingZeros(n)) / 4);
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            buf[length++] = HEX[(int) (n >>> shift) & 0xf];
        }
    }

    /** Sends everything gathered, blocking until the connection took it. */
    public void flush() throws IOException {
        if (length == 0) {
            return;
        }
        view.limit(length).position(0);
        try {
            writeFully(view);
        } finally {
            length = 0;
        }
    }

    private void writeFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            channel.write(b);
        }
    }
}
