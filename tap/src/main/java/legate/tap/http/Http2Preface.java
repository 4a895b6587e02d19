package legate.tap.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The connection preface of HTTP/2 with prior knowledge (RFC 9113 §3.4): the 24 octets
 * {@code PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n} a client sends first, which is how a gRPC client opens a
 * clear-text connection. The tap's HTTP/1.1 codec cannot read what follows, so a connection that
 * opens with it is told apart before any head is parsed.
 */
public final class Http2Preface {
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private Http2Preface() {
    }

    /**
     * Whether the connection opens with the preface. Reads only as far as the bytes agree with it
     * (an HTTP/1.1 request differs by its second byte at the latest), and consumes nothing: what was
     * read stays buffered for whichever reader follows.
     */
    public static boolean opens(WireInput in) throws IOException {
        while (true) {
            int n = Math.min(in.buffered(), PREFACE.length);
            if (!Arrays.equals(in.array(), in.position(), in.position() + n, PREFACE, 0, n)) {
                return false;
            }
            if (n == PREFACE.length) {
                return true;
            }
            if (in.fill() < 0) {
                return false;
            }
        }
    }

    /** The bytes buffered and not read yet, taken out of {@code in}: what a tunnel passes on first. */
    public static byte[] takeBuffered(WireInput in) {
        byte[] rest = Arrays.copyOfRange(in.array(), in.position(), in.position() + in.buffered());
        in.skip(rest.length);
        return rest;
    }
}
