package legate.tap.http;

import java.util.Arrays;

/** A head being written as bytes: text read as ISO-8859-1 goes back to the bytes it came from. */
public final class HeadBytes {
    private byte[] buf;
    private int length;

    public HeadBytes(int capacity) {
        buf = new byte[capacity];
    }

    public HeadBytes latin1(String s) {
        int n = s.length();
        ensure(n);
        for (int i = 0; i < n; i++) {
            buf[length++] = (byte) s.charAt(i);
        }
        return this;
    }

    public HeadBytes append(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, length, b.length);
        length += b.length;
        return this;
    }

    public HeadBytes append(char c) {
        ensure(1);
        buf[length++] = (byte) c;
        return this;
    }

    public HeadBytes crlf() {
        return append('\r').append('\n');
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, length);
    }

    private void ensure(int more) {
        if (length + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, length + more));
        }
    }
}
