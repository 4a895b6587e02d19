package legate.a2a.server.http;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Sends an SSE comment on every open stream that has been silent for a while, so proxies
 * keep it open and a client that is gone is noticed by the failed write. One sweep serves every
 * stream (a timer per stream would cost more than the stream itself), and it runs only while some
 * stream is open.
 *
 * <p>The failed write is the only sign of a hang-up on HTTP/1.1: Jetty reads nothing more from the
 * connection while its response streams (a failure listener on the request hears of the close only
 * when the server stops; seen on Jetty 12.1.14). The first comment after a hang-up is accepted by
 * the TCP stack and answered with a reset, so the second one fails: a gone client's stream, and its
 * place in MAX_STREAMS_PER_PRINCIPAL, lasts up to 2 x (silence + silence / 3) after it left
 * (README "Limits").
 */
public final class KeepAlive {
    private final Scheduler scheduler;
    private final long silenceNanos;
    private final long sweepMs;
    private final Set<SseResponse> open = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean sweeping = new AtomicBoolean();

    /** @param silence how long a stream may stay silent; it gets its comment within a third more */
    public KeepAlive(Scheduler scheduler, Duration silence) {
        this.scheduler = scheduler;
        this.silenceNanos = silence.toNanos();
        this.sweepMs = Math.max(1, silence.toMillis() / 3);
    }

    void add(SseResponse stream) {
        open.add(stream);
        if (sweeping.compareAndSet(false, true)) {
            schedule();
        }
    }

    void remove(SseResponse stream) {
        open.remove(stream);
    }

    /** Ends every open stream cleanly: the server is stopping. */
    public void endAll() {
        for (SseResponse s : open) {
            s.end();
        }
    }

    public int openStreams() {
        return open.size();
    }

    private void sweep() {
        for (SseResponse s : open) {
            s.keepAliveIfSilentFor(silenceNanos);
        }
        if (!open.isEmpty()) {
            schedule();
            return;
        }
        sweeping.set(false);
        // A stream may have opened after the emptiness check and found the sweep still running.
        if (!open.isEmpty() && sweeping.compareAndSet(false, true)) {
            schedule();
        }
    }

    private void schedule() {
        try {
            scheduler.schedule(this::sweep, sweepMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            // The server is stopping; its streams close with it.
            sweeping.set(false);
        }
    }
}
