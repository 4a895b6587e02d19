package legate.tap;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The tap's listeners on one thread of their own. An exchange hands each event over through a
 * bounded queue and goes on forwarding; this thread calls every listener with every event, one
 * event at a time, in the order the events were handed over. So the console and the log never
 * hold up the traffic, a listener never sees two events at once, and the events of one exchange
 * stay in the order they happened.
 *
 * <p>The queue is bounded: when the listeners fall that far behind (a terminal scrolling slowly),
 * the exchanges wait for them. Nothing is dropped and memory stays bounded.
 */
final class ListenerThread implements ExchangeListener, AutoCloseable {
    private static final int CAPACITY = 16 * 1024;
    private static final long DRAIN_TIMEOUT_S = 10;
    /** Put after the last event by {@link #close()}; compared by identity. */
    private static final ExchangeEvent END = new ExchangeEvent.Refused(0, Instant.EPOCH, 0, "end of events");

    private final List<ExchangeListener> listeners;
    private final BlockingQueue<ExchangeEvent> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final Thread thread;
    private volatile boolean started;

    ListenerThread(List<ExchangeListener> listeners) {
        this.listeners = List.copyOf(listeners);
        // A platform thread: the listeners' thread-local buffers (Jackson's) are reused event after event.
        this.thread = Thread.ofPlatform().name("legate-tap-listeners").daemon().unstarted(this::run);
    }

    void start() {
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
                batch.add(queue.take());
            } catch (InterruptedException e) {
                return;
            }
            queue.drainTo(batch);
            for (ExchangeEvent event : batch) {
                if (event == END) {
                    return;
                }
                deliver(event);
            }
            batch.clear();
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
