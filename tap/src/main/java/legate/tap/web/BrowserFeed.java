package legate.tap.web;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One open page's live feed: an SSE stream of {@link SessionHistory#message} objects, written by
 * the page's own request thread. The tap's listener thread only flags a change ({@link #changed}),
 * so a page that reads slowly, or not at all, never holds up the tap, and misses nothing either:
 * each message says how things stand (the counts, the newest rows that changed, the new problems),
 * not what happened, so a page that falls behind gets the latest state when it reads again.
 *
 * <p>At most one message every {@link #GATHER_NANOS}, the page's own redraw interval: under load
 * the browser takes four messages a second, each at most {@link SessionHistory#MAX_LISTED} rows,
 * however many exchanges pass. A comment every 15 s of quiet finds a page that went away.
 */
final class BrowserFeed {
    private static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(15);
    static final long GATHER_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private boolean changed = true;
    private boolean closed;

    /** Something in the session changed; never waits. */
    void changed() {
        lock.lock();
        try {
            if (!changed) {
                changed = true;
                ready.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Writes how the session stands, then each change, until the page goes away or {@link #close()}. */
    void run(OutputStream out, SessionHistory history) throws IOException {
        SessionHistory.PageState page = new SessionHistory.PageState();
        text(out, "retry: 2000\n\n");
        long written = 0;
        boolean live = false;
        while (true) {
            long gather = written + GATHER_NANOS - System.nanoTime();
            if (live && gather > 0) {
                LockSupport.parkNanos(gather);
            }
            lock.lock();
            try {
                long waited = KEEP_ALIVE_NANOS;
                while (!changed && !closed && waited > 0) {
                    waited = ready.awaitNanos(waited);
                }
                if (closed) {
                    return;
                }
                changed = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                lock.unlock();
            }
            byte[] message = history.message(page);
            if (message != null) {
                // A JSON object written by a generator has no raw line breaks, so it is one data line.
                out.write("data: ".getBytes(StandardCharsets.US_ASCII));
                out.write(message);
                out.write("\n\n".getBytes(StandardCharsets.US_ASCII));
            } else if (live) {
                out.write(": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII));
            }
            if (!live) {
                out.write("event: live\ndata: 1\n\n".getBytes(StandardCharsets.US_ASCII));
                live = true;
            }
            out.flush();
            written = System.nanoTime();
        }
    }

    /** Ends {@link #run} at its next wake-up. */
    void close() {
        lock.lock();
        try {
            closed = true;
            ready.signal();
        } finally {
            lock.unlock();
        }
    }

    private static void text(OutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
