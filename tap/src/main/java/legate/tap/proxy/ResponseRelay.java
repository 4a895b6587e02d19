package legate.tap.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import legate.tap.http.BodyInput;
import legate.tap.http.BodyOutput;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.wire.sse.SseParser;

/**
 * The relay of one response body from the upstream to the client: each piece is written and
 * flushed to the client the moment it is read, then shown. Nothing waits for a frame, a line or
 * the end of the body, so a client behind the tap sees bytes at the pace the agent sends them.
 * Only the last piece of a body that is not a stream waits: it leaves with the body's end, in one write.
 *
 * <p>For an event stream the same bytes also feed an {@link SseParser}, which reports each frame
 * once its bytes have already gone out. The parser only displays: if it gives up on a stream it
 * cannot read, the bytes keep flowing untouched. One relay per response, on one thread.
 */
final class ResponseRelay {
    /** A frame line longer than this is relayed but no longer shown as frames. */
    static final int MAX_SHOWN_LINE_BYTES = 16 * 1024 * 1024;

    private final BodyInput upstream;
    private final BodyOutput client;
    private final int keepBytes;
    private final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    private long bytes;
    private IOException upstreamFailure;
    private IOException clientFailure;

    /** @param keepBytes how much of the body to keep for display; the rest is relayed and counted only */
    ResponseRelay(BodyInput upstream, BodyOutput client, int keepBytes) {
        this.upstream = upstream;
        this.client = client;
        this.keepBytes = keepBytes;
    }

    /** Relays the whole body, keeping its start for display. */
    Outcome body() {
        Tee tee = new Tee(true);
        return drain(tee);
    }

    /** Relays an event stream, reporting each frame after its bytes reached the client. */
    Outcome frames(SseParser.Listener frames) {
        // Every piece of a stream is flushed, its last frame too: a frame is reported once it has left.
        Tee tee = new Tee(false);
        try {
            // The head goes out now, not with the first frame: the client learns at once that a
            // stream has opened, as it would without the tap.
            client.flush();
        } catch (IOException e) {
            clientFailure = e;
            return Outcome.CLIENT_GONE;
        }
        try {
            new SseParser(MAX_SHOWN_LINE_BYTES).parse(tee, frames);
            return drain(tee);
        } catch (IOException e) {
            if (clientFailure != null) {
                return Outcome.CLIENT_GONE;
            }
            if (upstreamFailure != null) {
                return Outcome.UPSTREAM_BROKE;
            }
            // The display parser gave up (a line over its limit); the client still gets every byte.
            return drain(tee);
        }
    }

    private Outcome drain(Tee tee) {
        byte[] buf = new byte[8192];
        try {
            while (tee.read(buf, 0, buf.length) >= 0) {
                // relayed inside read
            }
            return Outcome.COMPLETE;
        } catch (IOException e) {
            return clientFailure != null ? Outcome.CLIENT_GONE : Outcome.UPSTREAM_BROKE;
        }
    }

    /** The start of the body, at most {@code keepBytes} long. */
    byte[] kept() {
        return kept.toByteArray();
    }

    /** Every body byte that reached the client. */
    long bytes() {
        return bytes;
    }

    /** Why the relay stopped early, or null when it did not. */
    IOException failure() {
        return clientFailure != null ? clientFailure : upstreamFailure;
    }

    /** Reads from the upstream and, before handing the bytes on, writes and flushes them to the client. */
    private final class Tee extends InputStream {
        private final boolean holdLast;

        /** @param holdLast whether the body's last piece waits for its end, to leave in one write with it */
        Tee(boolean holdLast) {
            this.holdLast = holdLast;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n;
            boolean last;
            try {
                n = upstream.read(b, off, len);
                last = holdLast && n > 0 && upstream.complete();
            } catch (IOException e) {
                upstreamFailure = e;
                throw e;
            }
            if (n > 0) {
                try {
                    client.write(b, off, n);
                    if (!last) {
                        client.flush();
                    }
                } catch (IOException e) {
                    clientFailure = e;
                    throw e;
                }
                bytes += n;
                int keep = Math.min(n, keepBytes - kept.size());
                if (keep > 0) {
                    kept.write(b, off, keep);
                }
            }
            return n;
        }

        @Override
        public int read() throws IOException {
            return BodyInput.oneByte(this);
        }
    }
}
