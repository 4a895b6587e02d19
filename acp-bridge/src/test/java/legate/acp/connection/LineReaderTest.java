package legate.acp.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The ACP line reader on its own: terminators, the length cap, and UTF-8 across read boundaries. */
class LineReaderTest {
    private static LineReader reader(String text, int max) {
        return new LineReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), max);
    }

    @Test
    void crLfAndCrLfEndLinesAlike() throws Exception {
        LineReader r = reader("a\rb\nc\r\nd", 100);
        assertThat(r.readLine()).isEqualTo("a");
        assertThat(r.readLine()).isEqualTo("b");
        assertThat(r.readLine()).isEqualTo("c");
        assertThat(r.readLine()).as("the last line needs no terminator").isEqualTo("d");
        assertThat(r.readLine()).isNull();
    }

    @Test
    void emptyLinesAreLinesButNotTheEnd() throws Exception {
        LineReader r = reader("\n\r\nx\n", 100);
        assertThat(r.readLine()).isEmpty();
        assertThat(r.readLine()).isEmpty();
        assertThat(r.readLine()).isEqualTo("x");
        assertThat(r.readLine()).isNull();
    }

    @Test
    void anOverlongLineIsSkippedAndReportedAndTheNextLineIsRead() throws Exception {
        LineReader r = reader("0123456789\nok\n", 4);
        assertThatThrownBy(r::readLine).isInstanceOf(LineReader.LineTooLong.class)
                .satisfies(e -> assertThat(((LineReader.LineTooLong) e).length()).isEqualTo(10));
        assertThat(r.readLine()).isEqualTo("ok");
    }

    @Test
    void multiByteCharactersSurviveOneByteReads() throws Exception {
        // DEFECT (acp-core 0.14.0): the platform charset mangled non-ASCII; here each read returns one byte.
        byte[] bytes = "Grüße 世界 🚀\n".getBytes(StandardCharsets.UTF_8);
        InputStream trickle = new InputStream() {
            private int at;

            @Override
            public int read() {
                return at < bytes.length ? bytes[at++] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (at >= bytes.length) {
                    return -1;
                }
                b[off] = bytes[at++];
                return 1;
            }
        };
        assertThat(new LineReader(trickle, 100).readLine()).isEqualTo("Grüße 世界 🚀");
    }

    @Test
    void linesLongerThanTheBufferAndTerminatorsSplitAcrossReadsStillMakeOneLineEach() throws Exception {
        // The reader cuts lines out of a 64 Ki-char buffer; a line may span several fills, and a CR LF may
        // straddle two reads. Here every read returns at most 7 bytes or a whole 100,000-byte slab.
        String longLine = "x".repeat(150_000);
        String another = "y".repeat(150_000);
        String text = "a\r\n" + longLine + "\r\n" + another + "\nb\rc\r\n\r\nd";
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        InputStream pieces = new InputStream() {
            private int at;
            private int reads;

            @Override
            public int read() {
                return at < bytes.length ? bytes[at++] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (at >= bytes.length) {
                    return -1;
                }
                int n = Math.min(Math.min(len, bytes.length - at), reads++ % 3 == 0 ? 100_000 : 7);
                System.arraycopy(bytes, at, b, off, n);
                at += n;
                return n;
            }
        };
        LineReader r = new LineReader(pieces, 160_000);
        assertThat(r.readLine()).isEqualTo("a");
        assertThat(r.readLine()).isEqualTo(longLine);
        assertThat(r.readLine()).isEqualTo(another);
        assertThat(r.readLine()).isEqualTo("b");
        assertThat(r.readLine()).isEqualTo("c");
        assertThat(r.readLine()).isEmpty();
        assertThat(r.readLine()).isEqualTo("d");
        assertThat(r.readLine()).isNull();

        LineReader capped = reader(longLine + "\r\nok\n", 100_000);
        assertThatThrownBy(capped::readLine).isInstanceOf(LineReader.LineTooLong.class)
                .satisfies(e -> assertThat(((LineReader.LineTooLong) e).length()).isEqualTo(150_000));
        assertThat(capped.readLine()).as("the CR LF after an overlong line ends it once").isEqualTo("ok");
        assertThat(capped.readLine()).isNull();
    }

    @Test
    void malformedBytesBecomeReplacementCharactersNotAnError() throws Exception {
        LineReader r = new LineReader(new ByteArrayInputStream(new byte[] {'a', (byte) 0xff, 'b', '\n'}), 100);
        assertThat(r.readLine()).isEqualTo("a\uFFFDb");
    }
}
