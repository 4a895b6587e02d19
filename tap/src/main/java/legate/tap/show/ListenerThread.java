package legate.tap.show;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The tap's listeners on one thread of their own. An exchange hands each event over through a
 * bounded queue and goes on forwarding; this thread calls every listener with every event, one
 * event at a time, in the order the events were handed over. So the console and the log never
 * hold up the traffic, a listener never sees two events at once, and the events of one exchange
 * stay in the order they happened.
 *
 * <p>The queue is bounded: when the listeners fall that far behind (a terminal scrolling slowly),
 * the exchanges wait for them. Nothing is dropped and memory stays bounded. While events keep
 * coming, the thread takes them in batches a couple of milliseconds apart, and the listeners write
 * once per batch ({@link ExchangeListener#caughtUp()}).
 */
public final class ListenerThread implements ExchangeListener, AutoCloseable {
    private static final int CAPACITY = 16 * 1024;
    private static final long DRAIN_TIMEOUT_S = 10;
    // Short enough that a person never sees the delay, long enough that events arrive in batches.
    private static final long GATHER_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /** Put after the last event by {@link #close()}; compared by identity. */
    private static final ExchangeEvent END = new ExchangeEvent.Refused(0, Instant.EPOCH, 0, "end of events");

    private final List<ExchangeListener> listeners;
    private final BlockingQueue<ExchangeEvent> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final Thread thread;
    private volatile boolean started;

    /** @param listeners called in this order with every event; the thread starts with {@link #start()} */
    public ListenerThread(List<ExchangeListener> listeners) {
        this.listeners = List.copyOf(listeners);
        // A platform thread: the listeners' thread-local buffers (Jackson's) are reused event after event.
        this.thread = Thread.ofPlatform().name("legate-tap-listeners").daemon().unstarted(this::run);
    }

    public void start() {
        started = true;
        thread.start();
    }

    @Override
    public void on(ExchangeEvent event) {
        try {
            queue.put(event);
        } catch (InterruptedException e) {
            // The exchange is being torn down (the tap stops); its event goes unreported.
            Thread.currentThread().interrupt();
        }
    }

    private void run() {
        List<ExchangeEvent> batch = new ArrayList<>();
        while (true) {
            try {
                // Idle: wait until an exchange hands an event over, which wakes this thread.
                batch.add(queue.take());
            } catch (InterruptedException e) {
                return;
            }
            do {
                queue.drainTo(batch);
                if (!deliver(batch)) {
                    return;
                }
                // Busy: let the next events gather for a moment rather than have every event wake
                // this thread; an exchange that hands one over then finds no one to wake, which on
                // two shared cores was a context switch per event.
                LockSupport.parkNanos(GATHER_NANOS);
            } while (!queue.isEmpty());
        }
    }

    /** Delivers a batch and tells the listeners they have caught up; false when the batch held the end. */
    private boolean deliver(List<ExchangeEvent> batch) {
        try {
            for (ExchangeEvent event : batch) {
                if (event == END) {
                    return false;
                }
                deliver(event);
            }
            return true;
        } finally {
            batch.clear();
            for (ExchangeListener listener : listeners) {
                try {
                    listener.caughtUp();
                } catch (RuntimeException e) {
                    System.err.println("legate tap: a listener failed to write its output: " + e);
                }
            }
        }
    }

    private void deliver(ExchangeEvent event) {
        for (ExchangeListener listener : listeners) {
            try {
                listener.on(event);
            } catch (RuntimeException e) {
                System.err.println("legate tap: a listener failed on exchange #" + event.exchange() + ": " + e);
            }
        }
    }

    /** Delivers every event handed over so far, then ends the thread. */
    @Override
    public void close() throws InterruptedException {
        if (!started || !thread.isAlive()) {
            return;
        }
        if (queue.offer(END, DRAIN_TIMEOUT_S, TimeUnit.SECONDS)) {
            thread.join(TimeUnit.SECONDS.toMillis(DRAIN_TIMEOUT_S));
        }
        thread.interrupt();
    }
}
