package legate.tap.web;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One open page's live feed: an SSE stream of event lines, written by the page's own request
 * thread from a bounded queue. The tap's listener thread only queues ({@link #offer}), so a page
 * that reads slowly, or not at all, never holds up the tap.
 *
 * <p>When the queue is full the newest lines are dropped and counted; once the page has caught up
 * it gets an {@code event: dropped} frame with the count, so the page says it missed events instead
 * of showing a session with holes as if it were whole. A comment every 15 s of quiet finds a page
 * that went away.
 */
final class BrowserFeed {
    private static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(15);

    private final long maxQueuedChars;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private final ArrayDeque<String> queue = new ArrayDeque<>();
    private long queuedChars;
    private long droppedSinceTold;
    private long droppedTotal;
    private boolean closed;

    BrowserFeed(long maxQueuedChars) {
        this.maxQueuedChars = maxQueuedChars;
    }

    /** Queues a line for the page, or drops it when the page is that far behind. Never waits. */
    void offer(String line) {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (queuedChars + line.length() > maxQueuedChars) {
                droppedSinceTold++;
                droppedTotal++;
                return;
            }
            queue.addLast(line);
            queuedChars += line.length();
            ready.signal();
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
    void run(OutputStream out, List<String> history, long droppedBefore) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append("retry: 2000\n\n");
        if (droppedBefore > 0) {
            sb.append("event: history-dropped\ndata: ").append(droppedBefore).append("\n\n");
        }
        write(out, sb);
        for (String line : history) {
            frame(sb, line);
            if (sb.length() > 64 * 1024) {
                write(out, sb);
            }
        }
        sb.append("event: live\ndata: ").append(history.size()).append("\n\n");
        write(out, sb);
        List<String> batch = new ArrayList<>();
        while (true) {
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
                queuedChars = 0;
                dropped = droppedSinceTold;
                droppedSinceTold = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                lock.unlock();
            }
            for (String line : batch) {
                frame(sb, line);
            }
            batch.clear();
            if (dropped > 0) {
                sb.append("event: dropped\ndata: ").append(dropped).append("\n\n");
            }
            if (sb.isEmpty()) {
                sb.append(": keep-alive\n\n");
            }
            write(out, sb);
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

    private static void frame(StringBuilder sb, String line) {
        // A JSON line has no raw line breaks (they are escaped inside strings), so it is one data line.
        sb.append("data: ").append(line).append("\n\n");
    }

    private static void write(OutputStream out, StringBuilder sb) throws IOException {
        out.write(sb.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        sb.setLength(0);
    }
}
