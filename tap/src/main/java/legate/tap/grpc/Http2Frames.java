package legate.tap.grpc;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * One direction of an HTTP/2 connection cut into frames (RFC 9113 §4.1: a 9-octet header of length,
 * type, flags and stream id, then the payload), from bytes fed in as they were forwarded, in pieces
 * of any size. The client's direction opens with the 24-octet preface, which is skipped.
 * Single-threaded: one forwarding thread feeds one direction.
 */
final class Http2Frames {
    /** What a frame is, as far as showing gRPC calls needs. */
    record Frame(int type, int flags, int stream, byte[] payload) {
        static final int DATA = 0x0;
        static final int HEADERS = 0x1;
        static final int RST_STREAM = 0x3;
        static final int CONTINUATION = 0x9;
        static final int END_STREAM = 0x1;
        static final int END_HEADERS = 0x4;
        static final int PADDED = 0x8;
        static final int PRIORITY = 0x20;
    }

    /** Receives each whole frame. */
    interface Sink {
        void frame(Frame frame);
    }

    private static final int PREFACE_BYTES = 24;
    private static final int HEADER_BYTES = 9;
    /** SETTINGS_MAX_FRAME_SIZE may not exceed 2^24-1 (RFC 9113 §6.5.2); a larger length is not HTTP/2. */
    private static final int MAX_FRAME_BYTES = (1 << 24) - 1;

    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private final Sink sink;
    private int prefaceLeft;

    /** @param client whether these are the client's bytes, which open with the connection preface */
    Http2Frames(boolean client, Sink sink) {
        this.sink = sink;
        this.prefaceLeft = client ? PREFACE_BYTES : 0;
    }

    /** Takes the next bytes of the direction and hands on every frame they complete. */
    void feed(byte[] bytes, int offset, int length) {
        int skip = Math.min(prefaceLeft, length);
        prefaceLeft -= skip;
        pending.write(bytes, offset + skip, length - skip);
        byte[] all = pending.toByteArray();
        int at = 0;
        while (all.length - at >= HEADER_BYTES) {
            int size = ((all[at] & 0xff) << 16) | ((all[at + 1] & 0xff) << 8) | (all[at + 2] & 0xff);
            if (size > MAX_FRAME_BYTES || all.length - at - HEADER_BYTES < size) {
                break;
            }
            int type = all[at + 3] & 0xff;
            int flags = all[at + 4] & 0xff;
            int stream = ((all[at + 5] & 0x7f) << 24) | ((all[at + 6] & 0xff) << 16) | ((all[at + 7] & 0xff) << 8)
                    | (all[at + 8] & 0xff);
            byte[] payload = Arrays.copyOfRange(all, at + HEADER_BYTES, at + HEADER_BYTES + size);
            at += HEADER_BYTES + size;
            sink.frame(new Frame(type, flags, stream, payload));
        }
        pending.reset();
        pending.write(all, at, all.length - at);
    }

    /**
     * The payload without its padding (RFC 9113 §6.1, §6.2) and, for HEADERS, without the priority
     * fields: the data, or the header block fragment.
     */
    static byte[] content(Frame f) {
        int from = 0;
        int to = f.payload().length;
        if ((f.flags() & Frame.PADDED) != 0 && (f.type() == Frame.DATA || f.type() == Frame.HEADERS) && to > 0) {
            from = 1;
            to -= f.payload()[0] & 0xff;
        }
        if (f.type() == Frame.HEADERS && (f.flags() & Frame.PRIORITY) != 0) {
            from += 5;
        }
        return from >= to ? new byte[0] : Arrays.copyOfRange(f.payload(), from, to);
    }
}
