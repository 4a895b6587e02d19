package legate.acp.connection;

import java.io.BufferedReader;
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
    private final StringBuilder line = new StringBuilder();
    private boolean afterCr;

    public LineReader(InputStream in, int maxChars) {
        // PROTOCOL (ACP): messages are UTF-8. DEFECT (acp-core 0.14.0): read in the platform charset,
        // non-ASCII answers arrived mangled. Malformed bytes become U+FFFD instead of stopping the reader.
        this.in = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE)), 64 * 1024);
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
        int c;
        while ((c = in.read()) >= 0) {
            if (afterCr) {
                afterCr = false;
                if (c == '\n') {
                    continue;
                }
            }
            if (c == '\r' || c == '\n') {
                afterCr = c == '\r';
                return finish(overflow);
            }
            any = true;
            if (line.length() < maxChars) {
                line.append((char) c);
            } else {
                overflow++;
            }
        }
        if (!any) {
            return null;
        }
        return finish(overflow);
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
