package legate.tap.proxy;

import java.io.IOException;
import java.time.Duration;
import legate.tap.http.MalformedMessage;

/**
 * The upstream side of one client connection: its own connection to the target, opened at the
 * first request, kept alive between exchanges as the client's is, and opened anew when the target
 * has closed it. One client connection, one upstream connection: no pool to share and nothing to
 * hand over between threads.
 */
final class PairedUpstream implements AutoCloseable {
    // PEER (any TLS server): an idle TLS connection cannot be checked without reading into the TLS
    // stream, so it is kept for less than the shortest common keep-alive timeout (Node.js: 5 s).
    private static final long TLS_MAX_IDLE_NANOS = Duration.ofSeconds(2).toNanos();

    private final UpstreamDialer dialer;
    private UpstreamConnection kept;
    private long idleSince;

    PairedUpstream(UpstreamDialer dialer) {
        this.dialer = dialer;
    }

    /**
     * Sends the request and reads the response head. The caller reads the body from the returned
     * connection and then gives it back with {@link #release}.
     *
     * @throws IOException when the target cannot be reached or breaks off before a response head
     */
    UpstreamConnection exchange(ForwardedRequest request) throws IOException {
        while (true) {
            UpstreamConnection c = kept();
            boolean reused = c != null;
            if (c == null) {
                c = dialer.connect();
            }
            IOException failure;
            try {
                c.send(request);
                if (c.readHead(request.isHead())) {
                    return c;
                }
                failure = new IOException("the agent closed the connection without answering");
            } catch (MalformedMessage e) {
                // A response the tap cannot relay is the agent's answer, not a stale connection: never resent.
                dialer.discard(c);
                throw e;
            } catch (IOException e) {
                failure = e;
            }
            dialer.discard(c);
            // PROTOCOL (RFC 9112 §9.3.1.1): a request that met a kept-alive connection the target had
            // just closed is sent again on a new one only when its method is idempotent; any other
            // might have been applied, so the client gets the failure instead.
            if (!reused || !request.idempotent()) {
                throw failure;
            }
        }
    }

    /** Gives the connection back: kept for the next exchange when its response ended cleanly, else closed. */
    void release(UpstreamConnection c) {
        if (c.reusable()) {
            kept = c;
            idleSince = System.nanoTime();
        } else {
            dialer.discard(c);
        }
    }

    private UpstreamConnection kept() {
        UpstreamConnection c = kept;
        kept = null;
        if (c == null) {
            return null;
        }
        boolean fresh = !dialer.tls() || System.nanoTime() - idleSince < TLS_MAX_IDLE_NANOS;
        if (fresh && c.stillOpen()) {
            return c;
        }
        dialer.discard(c);
        return null;
    }

    @Override
    public void close() {
        UpstreamConnection c = kept;
        kept = null;
        if (c != null) {
            dialer.discard(c);
        }
    }
}
