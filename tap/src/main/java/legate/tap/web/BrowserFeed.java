package legate.tap.web;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One open page's live feed: an SSE stream of event lines, written by the page's own request
 * thread from a bounded queue. The tap's listener thread only queues ({@link #offer}), so a page
 * that reads slowly, or not at all, never holds up the tap.
 *
 * <p>A line is sent as its {@link PageLine}, without headers and body (the views that draw them
 * ask for their exchanges whole), and the lines waiting at a wake-up go as one SSE message of several
 * {@code data:} lines, which the page splits at its line breaks (a JSON line has none of its own).
 * Under load the browser then handles one message per batch, not one per event: with a message
 * per event, Chromium's CPU on the page was of the order of the tap's own.
 *
 * <p>When the queue is full the newest lines are dropped and counted; once the page has caught up
 * it gets an {@code event: dropped} frame with the count, so the page says it missed events instead
 * of showing a session with holes as if it were whole. A comment every 15 s of quiet finds a page
 * that went away.
 */
final class BrowserFeed {
    private static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(15);
    /** A message is closed and written once it holds this much, so a long history streams in pieces. */
    private static final int MESSAGE_BYTES = 64 * 1024;
    /**
     * At most one write to the page this often: the lines that come in between go in one message.
     * Well under the page's own redraw interval (250 ms), so nothing looks later; and under load the
     * browser takes a message, and the tap makes a write, ten times a second instead of one per event.
     */
    private static final long GATHER_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    private static final byte[] DATA = "data: ".getBytes(StandardCharsets.US_ASCII);

    private final long maxQueuedBytes;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private final ArrayDeque<SessionHistory.Entry> queue = new ArrayDeque<>();
    private long queuedBytes;
    private long droppedSinceTold;
    private long droppedTotal;
    private boolean closed;

    BrowserFeed(long maxQueuedBytes) {
        this.maxQueuedBytes = maxQueuedBytes;
    }

    /** Queues a line for the page, or drops it when the page is that far behind. Never waits. */
    void offer(SessionHistory.Entry line) {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (queuedBytes + line.page().length > maxQueuedBytes) {
                droppedSinceTold++;
                droppedTotal++;
                return;
            }
            queue.addLast(line);
            queuedBytes += line.page().length;
            if (queue.size() == 1) {
                // Only the first line wakes the page's thread; it takes whatever has come since.
                ready.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Lines dropped for this page so far. */
    long dropped() {
        lock.lock();
        try {
            return droppedTotal;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes the history, then every queued line, until the page goes away or {@link #close()}.
     *
     * @param droppedBefore events the history had already let go before this page opened
     */
    void run(OutputStream out, List<SessionHistory.Entry> history, long droppedBefore) throws IOException {
        ByteArrayOutputStream sb = new ByteArrayOutputStream(MESSAGE_BYTES + 8 * 1024);
        text(sb, "retry: 2000\n\n");
        if (droppedBefore > 0) {
            text(sb, "event: history-dropped\ndata: " + droppedBefore + "\n\n");
        }
        write(out, sb);
        message(out, sb, history);
        text(sb, "event: live\ndata: " + history.size() + "\n\n");
        write(out, sb);
        List<SessionHistory.Entry> batch = new ArrayList<>();
        long written = System.nanoTime();
        while (true) {
            long gather = written + GATHER_NANOS - System.nanoTime();
            if (gather > 0) {
                LockSupport.parkNanos(gather);
            }
            long dropped;
            lock.lock();
            try {
                long waited = KEEP_ALIVE_NANOS;
                while (queue.isEmpty() && droppedSinceTold == 0 && !closed && waited > 0) {
                    waited = ready.awaitNanos(waited);
                }
                if (closed) {
                    return;
                }
                batch.addAll(queue);
                queue.clear();
                queuedBytes = 0;
                dropped = droppedSinceTold;
                droppedSinceTold = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                lock.unlock();
            }
            message(out, sb, batch);
            batch.clear();
            if (dropped > 0) {
                text(sb, "event: dropped\ndata: " + dropped + "\n\n");
            }
            if (sb.size() == 0) {
                text(sb, ": keep-alive\n\n");
            }
            write(out, sb);
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

    /** The lines as SSE messages of several data lines each, written as each fills up; the last left in {@code sb}. */
    private static void message(OutputStream out, ByteArrayOutputStream sb, List<SessionHistory.Entry> lines)
            throws IOException {
        boolean open = false;
        for (SessionHistory.Entry line : lines) {
            // A JSON line has no raw line breaks (they are escaped inside strings), so it is one data line.
            sb.write(DATA);
            sb.writeBytes(line.page());
            sb.write('\n');
            open = true;
            if (sb.size() > MESSAGE_BYTES) {
                sb.write('\n');
                open = false;
                write(out, sb);
            }
        }
        if (open) {
            sb.write('\n');
        }
    }

    private static void text(ByteArrayOutputStream sb, String s) {
        sb.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    private static void write(OutputStream out, ByteArrayOutputStream sb) throws IOException {
        sb.writeTo(out);
        out.flush();
        sb.reset();
    }
}
