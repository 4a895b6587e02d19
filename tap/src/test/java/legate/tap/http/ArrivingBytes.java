package legate.tap.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;

/**
 * The bytes a peer sends on a connection, for a reader under test: they arrive in pieces of a chosen
 * size (one byte each, say, so every "wait for more" path is taken), then the connection ends. A
 * connection can instead stay open and silent after its bytes: a read then fails the test, because
 * on a real socket it would block, and the reader was to answer from what it had.
 */
final class ArrivingBytes implements ReadableByteChannel {
    private final byte[] bytes;
    private final int pieceBytes;
    private final boolean endsAfter;
    private int sent;
    private boolean open = true;

    private ArrivingBytes(byte[] bytes, int pieceBytes, boolean endsAfter) {
        this.bytes = bytes;
        this.pieceBytes = pieceBytes;
        this.endsAfter = endsAfter;
    }

    /** The text's bytes (ISO-8859-1, one byte per character) in one piece, then the end. */
    static ArrivingBytes whole(String text) {
        return new ArrivingBytes(latin1(text), Integer.MAX_VALUE, true);
    }

    /** The text's bytes in pieces of {@code pieceBytes}, then the end. */
    static ArrivingBytes inPieces(String text, int pieceBytes) {
        return new ArrivingBytes(latin1(text), pieceBytes, true);
    }

    /** The text's bytes, then a connection that stays open and sends nothing more. */
    static ArrivingBytes thenSilence(String text) {
        return new ArrivingBytes(latin1(text), Integer.MAX_VALUE, false);
    }

    /** The input a reader reads: these bytes from {@code sender}, with a head bound of {@code maxBytes}. */
    WireInput from(Sender sender, int maxBytes) {
        return new WireInput(this, sender, 16, maxBytes);
    }

    /** Everything a reader left in {@code in} for the connection's next message, to its end. */
    static String restOf(WireInput in) throws IOException {
        StringBuilder rest = new StringBuilder();
        do {
            rest.append(new String(in.array(), in.position(), in.buffered(), StandardCharsets.ISO_8859_1));
            in.skip(in.buffered());
        } while (in.fill() >= 0);
        return rest.toString();
    }

    /** How many bytes the reader has taken off the connection so far. */
    int sent() {
        return sent;
    }

    @Override
    public int read(ByteBuffer dst) {
        if (sent == bytes.length) {
            if (endsAfter) {
                return -1;
            }
            throw new AssertionError("the reader waited for bytes the peer never sent (a real socket would block here)");
        }
        int n = Math.min(Math.min(pieceBytes, dst.remaining()), bytes.length - sent);
        dst.put(bytes, sent, n);
        sent += n;
        return n;
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() {
        open = false;
    }

    private static byte[] latin1(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
