package legate.acp.connection;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads the lines of an ACP stream: UTF-8 whatever the platform charset, CR, LF and CRLF alike, and
 * no line longer than a cap. An overlong line is skipped to its end and reported, so one bad line
 * costs that line only. Not thread-safe; one reader thread owns it.
 */
public final class LineReader {
    private final Reader in;
    private final int maxChars;
    // Lines are cut out of this buffer in bulk. DEFECT: read one char at a time through a BufferedReader
    // (a lock per char) and appended char by char, splitting a 150-byte ACP line took ~2.2 µs, the
    // largest single share of the reader thread while an agent streamed tokens (bench workload 7); in
    // bulk it takes ~0.4 µs.
    private final char[] buf = new char[64 * 1024];
    private int pos;
    private int end;
    private final StringBuilder line = new StringBuilder();
    private boolean afterCr;

    public LineReader(InputStream in, int maxChars) {
        // PROTOCOL (ACP): messages are UTF-8. DEFECT (acp-core 0.14.0): read in the platform charset,
        // non-ASCII answers arrived mangled. Malformed bytes become U+FFFD instead of stopping the reader.
        this.in = new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE));
        this.maxChars = maxChars;
    }

    /** Thrown for a line longer than the cap; the reader has already moved past it. */
    public static final class LineTooLong extends Exception {
        private final long length;

        LineTooLong(long length, int max) {
            super("a line of " + length + " characters is longer than the limit of " + max, null, false, false);
            this.length = length;
        }

        public long length() {
            return length;
        }
    }

    /** The next line without its terminator, or null at the end of the stream. */
    public String readLine() throws IOException, LineTooLong {
        line.setLength(0);
        long overflow = 0;
        boolean any = false;
        while (true) {
            if (pos == end && !fill()) {
                return any ? finish(overflow) : null;
            }
            if (afterCr) {
                afterCr = false;
                if (buf[pos] == '\n') {
                    pos++;
                    continue;
                }
            }
            int start = pos;
            int i = start;
            while (i < end && buf[i] != '\n' && buf[i] != '\r') {
                i++;
            }
            int n = i - start;
            if (i < end && !any && n <= maxChars) {
                // The whole line is in the buffer: one copy, straight into the String.
                afterCr = buf[i] == '\r';
                pos = i + 1;
                return new String(buf, start, n);
            }
            if (n > 0) {
                any = true;
                int room = Math.max(0, maxChars - line.length());
                line.append(buf, start, Math.min(n, room));
                overflow += Math.max(0, n - room);
            }
            pos = i;
            if (i < end) {
                afterCr = buf[i] == '\r';
                pos = i + 1;
                return finish(overflow);
            }
        }
    }

    private boolean fill() throws IOException {
        int n;
        do {
            n = in.read(buf, 0, buf.length);
        } while (n == 0);
        if (n < 0) {
            return false;
        }
        pos = 0;
        end = n;
        return true;
    }

    private String finish(long overflow) throws LineTooLong {
        if (overflow > 0) {
            long length = line.length() + overflow;
            line.setLength(0);
            throw new LineTooLong(length, maxChars);
        }
        return line.toString();
    }
}
