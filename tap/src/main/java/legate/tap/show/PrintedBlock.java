package legate.tap.show;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One event's lines as the console will get them, in UTF-8: every line opens with the exchange's
 * prefix ({@code [#3] }), body lines are indented under it, and control characters other than tab
 * are written as {@code \xNN}, so a body cannot drive the terminal. Built by {@link WirePrinter}
 * and, for JSON bodies, by {@link JsonLayout} straight from the body's bytes.
 */
final class PrintedBlock {
    static final String RESET = "\u001b[0m";
    static final String DIM = "\u001b[2m";
    private static final byte[] NEWLINE = System.lineSeparator().getBytes(StandardCharsets.UTF_8);
    private static final byte[] BODY_INDENT = "   ".getBytes(StandardCharsets.UTF_8);
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.UTF_8);

    private final byte[] lineStart;
    private final boolean colour;
    private byte[] buf = new byte[2048];
    private int length;

    PrintedBlock(long exchange, boolean colour) {
        String prefix = "[#" + exchange + "] ";
        this.lineStart = (colour ? DIM + prefix + RESET : prefix).getBytes(StandardCharsets.UTF_8);
        this.colour = colour;
    }

    /** The event's first line, in {@code style} (an ANSI colour, used only with colour on). */
    void head(String style, String text) {
        styled(style, "", text);
    }

    /** A line under the head, indented. */
    void line(String style, String text) {
        styled(style, "   ", text);
    }

    private void styled(String style, String indent, String text) {
        put(lineStart);
        String s = colour && style != null ? style + indent + text + RESET : indent + text;
        put(s.getBytes(StandardCharsets.UTF_8));
        put(NEWLINE);
    }

    /** A line of body text, with control characters made visible. */
    void bodyLine(char[] text, int from, int to) {
        openBodyLine();
        StringBuilder sb = new StringBuilder(to - from + 8);
        int run = from;
        for (int i = from; i < to; i++) {
            char c = text[i];
            if (isControl(c)) {
                sb.append(text, run, i - run).append("\\x").append((char) HEX[c >> 4]).append((char) HEX[c & 0xf]);
                run = i + 1;
            }
        }
        put(sb.append(text, run, to - run).toString().getBytes(StandardCharsets.UTF_8));
        endLine();
    }

    static boolean isControl(char c) {
        return (c < 0x20 && c != '\t') || c == 0x7f || (c >= 0x80 && c < 0xa0);
    }

    void openBodyLine() {
        put(lineStart);
        put(BODY_INDENT);
    }

    void endLine() {
        put(NEWLINE);
    }

    /**
     * Copies UTF-8 text, writing control characters (C0 other than tab, DEL, C1) as {@code \xNN}.
     *
     * @return false when the bytes are not well-formed UTF-8; what was copied then stays, and the
     *     caller rolls back to its {@link #mark()}
     */
    boolean putVisible(byte[] src, int from, int to) {
        int i = from;
        int run = from;
        while (i < to) {
            int b = src[i] & 0xff;
            if (b >= 0x20 && b < 0x7f || b == '\t') {
                i++;
                continue;
            }
            put(src, run, i - run);
            if (b < 0x80) {
                hex(b);
                run = ++i;
                continue;
            }
            int n = sequenceLength(src, i, to);
            if (n < 0) {
                return false;
            }
            if (b == 0xc2 && (src[i + 1] & 0xff) < 0xa0) {
                hex(src[i + 1] & 0xff);
            } else {
                put(src, i, n);
            }
            i += n;
            run = i;
        }
        put(src, run, to - run);
        return true;
    }

    /** The length of the UTF-8 sequence at {@code i}, or -1 when it is malformed (RFC 3629 §4). */
    private static int sequenceLength(byte[] s, int i, int to) {
        int b = s[i] & 0xff;
        int n;
        int lo = 0x80;
        int hi = 0xbf;
        if (b >= 0xc2 && b <= 0xdf) {
            n = 2;
        } else if (b >= 0xe0 && b <= 0xef) {
            n = 3;
            lo = b == 0xe0 ? 0xa0 : 0x80;
            hi = b == 0xed ? 0x9f : 0xbf;
        } else if (b >= 0xf0 && b <= 0xf4) {
            n = 4;
            lo = b == 0xf0 ? 0x90 : 0x80;
            hi = b == 0xf4 ? 0x8f : 0xbf;
        } else {
            return -1;
        }
        if (i + n > to) {
            return -1;
        }
        int second = s[i + 1] & 0xff;
        if (second < lo || second > hi) {
            return -1;
        }
        for (int k = 2; k < n; k++) {
            if ((s[i + k] & 0xc0) != 0x80) {
                return -1;
            }
        }
        return n;
    }

    private void hex(int c) {
        ensure(4);
        buf[length++] = '\\';
        buf[length++] = 'x';
        buf[length++] = HEX[c >> 4];
        buf[length++] = HEX[c & 0xf];
    }

    void put(byte b) {
        ensure(1);
        buf[length++] = b;
    }

    void put(byte[] b) {
        put(b, 0, b.length);
    }

    void put(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, length, len);
        length += len;
    }

    int mark() {
        return length;
    }

    void reset(int mark) {
        length = mark;
    }

    byte[] array() {
        return buf;
    }

    int length() {
        return length;
    }

    private void ensure(int more) {
        if (length + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, length + more));
        }
    }
}
