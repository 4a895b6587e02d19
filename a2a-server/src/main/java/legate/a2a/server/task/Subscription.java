package legate.a2a.server.task;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import legate.a2a.model.A2aException;
import lf.a2a.v1.StreamResponse;

/**
 * One reader of a task's events: a stream response being written, or a blocking call waiting for
 * the turn to end. Signals arrive in publication order; after {@link Signal.End} or
 * {@link Signal.Failure} nothing more arrives.
 */
public final class Subscription {
    /** What a subscriber can receive. */
    public sealed interface Signal {
        record Event(StreamResponse event) implements Signal {
        }

        /** The stream is over: the task reached a terminal or interrupted state, or the turn ended. */
        record End() implements Signal {
        }

        /** The call fails before any event was produced (the binding answers with a plain error). */
        record Failure(A2aException error) implements Signal {
        }
    }

    private static final Signal.End END = new Signal.End();

    private final BlockingQueue<Signal> queue = new LinkedBlockingQueue<>();
    private final Runnable onCancel;
    private volatile boolean closed;

    Subscription(Runnable onCancel) {
        this.onCancel = onCancel;
    }

    void offer(StreamResponse event) {
        if (!closed) {
            queue.add(new Signal.Event(event));
        }
    }

    void end() {
        if (!closed) {
            closed = true;
            queue.add(END);
        }
    }

    void fail(A2aException error) {
        if (!closed) {
            closed = true;
            queue.add(new Signal.Failure(error));
        }
    }

    /** Waits up to {@code timeout} for the next signal; null when none came in time. */
    public Signal poll(Duration timeout) throws InterruptedException {
        return queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * The reader is gone (a client disconnected). PROTOCOL (A2A §3.5.2): closing one stream does
     * not affect the task or the other streams; only this subscription is dropped.
     */
    public void cancel() {
        closed = true;
        queue.clear();
        onCancel.run();
    }
}
