package legate.tap.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;
import legate.tap.http.MalformedMessage.Fault;

/**
 * The bytes arriving on one side of an HTTP/1.1 connection, buffered so that a head, a chunk-size
 * line or a body can be taken out of them without a read per byte. A read blocks until some bytes
 * arrive and returns what has arrived: nothing waits for a buffer to fill, so a stream passes at its
 * sender's pace.
 *
 * <p>The buffer grows only as far as {@code maxBytes}: the longest head or line the reader accepts
 * has to fit in it whole. It knows who sends its bytes ({@link Sender}), so every reader over it
 * names that sender in what it refuses. Used by one thread at a time.
 */
public final class WireInput {
    private final ReadableByteChannel channel;
    private final Sender sender;
    private final int maxBytes;
    private byte[] buf;
    private ByteBuffer view;
    private int pos;
    private int limit;
    private boolean ended;
    private volatile long lastRead = System.nanoTime();

    /**
     * @param sender who sends the bytes: the client of a connection the reader accepted, or the
     *     server of one it dialed
     * @param initialBytes the buffer's first size
     * @param maxBytes the size the buffer may grow to: the longest head or line accepted
     */
    public WireInput(ReadableByteChannel channel, Sender sender, int initialBytes, int maxBytes) {
        this.channel = channel;
        this.sender = sender;
        this.maxBytes = maxBytes;
        this.buf = new byte[initialBytes];
        this.view = ByteBuffer.wrap(buf);
    }

    /** Who sends these bytes. */
    public Sender sender() {
        return sender;
    }

    byte[] array() {
        return buf;
    }

    /** Where the unread bytes start in {@link #array()}. */
    int position() {
        return pos;
    }

    /** How many bytes have arrived and are not read yet. */
    public int buffered() {
        return limit - pos;
    }

    /** Marks {@code n} buffered bytes read. */
    public void skip(int n) {
        pos += n;
    }

    /** Whether the peer has ended its side of the connection (a read returned end of stream). */
    public boolean ended() {
        return ended;
    }

    /** When bytes last arrived, in {@link System#nanoTime()} terms. */
    public long lastRead() {
        return lastRead;
    }

    /**
     * Waits for more bytes and adds them to the buffered ones, which keep their content but may move
     * ({@link #position()} changes).
     *
     * @return how many arrived, or -1 at the end of the stream
     * @throws MalformedMessage when {@code maxBytes} are already buffered unread: what the caller
     *     waits for is longer than it may be
     */
    public int fill() throws IOException {
        if (pos == limit) {
            pos = 0;
            limit = 0;
        } else if (limit == buf.length) {
            if (pos > 0) {
                System.arraycopy(buf, pos, buf, 0, limit - pos);
                limit -= pos;
                pos = 0;
            } else if (buf.length < maxBytes) {
                buf = Arrays.copyOf(buf, Math.min(maxBytes, buf.length * 2));
                view = ByteBuffer.wrap(buf);
            } else {
                throw new MalformedMessage(sender, Fault.HEAD_TOO_LARGE,
                        "a head or line longer than " + maxBytes + " bytes");
            }
        }
        view.limit(buf.length).position(limit);
        int n = channel.read(view);
        if (n < 0) {
            ended = true;
            return -1;
        }
        limit += n;
        lastRead = System.nanoTime();
        return n;
    }

    /** The index in {@link #array()} of the first LF at or after {@code from}, or -1 when none has arrived. */
    int indexOfLf(int from) {
        for (int i = from; i < limit; i++) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
