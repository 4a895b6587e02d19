package legate.tap.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;

/**
 * Fuzzes the tap's HTTP/1.1 reading of one connection, as {@code ClientConnection} and the upstream
 * side read it: heads ({@link HeadParser}), framing ({@link Framing}) and bodies
 * ({@link BodyInput}), message after message (docs/fuzzing.md). The first byte picks the side (a
 * client's requests or a server's responses) and the size of the pieces the bytes arrive in, so
 * every "wait for more" path is taken. Properties: what the tap cannot read is an
 * {@link IOException} ({@link MalformedMessage} naming the sender, or a connection that ended early),
 * never another exception, which would kill the connection's thread without an answer; and a body
 * framed by Content-Length yields exactly that many bytes.
 */
class HttpMessageFuzzTest {
    private static final int MAX_HEAD_BYTES = 512;

    @FuzzTest(maxDuration = "60s")
    void anyConnectionIsReadOrRefusedAsMalformed(byte[] input) throws IOException {
        if (input.length == 0) {
            return;
        }
        boolean requests = (input[0] & 1) == 0;
        int pieceBytes = 1 + ((input[0] & 0xff) >> 1);
        Sender sender = requests ? Sender.CLIENT : Sender.SERVER;
        WireInput in = new WireInput(new Pieces(input, 1, pieceBytes), sender, 16, MAX_HEAD_BYTES);
        HeadParser parser = new HeadParser(in);
        try {
            for (int message = 0; message < 16; message++) {
                Framing framing;
                if (requests) {
                    RequestHead head = parser.request();
                    if (head == null) {
                        return;
                    }
                    framing = Framing.ofRequest(head);
                } else {
                    ResponseHead head = parser.response();
                    if (head == null) {
                        return;
                    }
                    framing = Framing.ofResponse(head, false);
                }
                long read = drain(new BodyInput(in, framing));
                if (framing instanceof Framing.Length length) {
                    assertThat(read).isEqualTo(length.bytes());
                }
            }
        } catch (MalformedMessage e) {
            assertThat(e.sender()).isEqualTo(sender);
        } catch (IOException e) {
            // The connection ended before the message did: the documented plain IOException.
        }
    }

    private static long drain(BodyInput body) throws IOException {
        byte[] buf = new byte[64];
        long total = 0;
        int n;
        while ((n = body.read(buf, 0, buf.length)) >= 0) {
            total += n;
        }
        return total;
    }

    /** The bytes after {@code from}, arriving {@code pieceBytes} at a time, then the end of the stream. */
    private static final class Pieces implements ReadableByteChannel {
        private final byte[] bytes;
        private final int pieceBytes;
        private int at;

        Pieces(byte[] bytes, int from, int pieceBytes) {
            this.bytes = bytes;
            this.at = from;
            this.pieceBytes = pieceBytes;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (at >= bytes.length) {
                return -1;
            }
            int n = Math.min(Math.min(pieceBytes, dst.remaining()), bytes.length - at);
            dst.put(bytes, at, n);
            at += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
        }
    }
}
