package legate.a2a.server.task;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;
import legate.a2a.model.A2aException;
import lf.a2a.v1.StreamResponse;

/**
 * One reader of a task's events: a stream response being written, or a blocking call waiting for
 * the turn to end. Signals arrive in publication order; after {@link Signal.End} or
 * {@link Signal.Failure} nothing more arrives.
 *
 * <p>A reader either polls, or hands over a listener ({@link #deliverTo}) that is called on the
 * publishing thread. The second costs no thread while the task is quiet, which is what lets a
 * server hold thousands of streams of long turns.
 */
public final class Subscription {
    /** What a subscriber can receive. */
    public sealed interface Signal {
        /**
         * One event of the task.
         *
         * @param seq the event's sequence number in the task's log, the SSE {@code id:} of its frame (the
         *            same on every stream); for a snapshot, the number of the latest event it reflects; 0 for a
         *            Message answer, which belongs to no task and has no id
         */
        record Event(StreamResponse event, long seq) implements Signal {
        }

        /**
         * The stream is over: the turn it carries ended (SendStreamingMessage, or a stream resumed
         * with Last-Event-ID: a terminal or INPUT_REQUIRED event, or the turn's end), the task it
         * follows reached a terminal state (SubscribeToTask without Last-Event-ID), or the server
         * stops.
         */
        record End() implements Signal {
        }

        /** The call fails before any event was produced (the binding answers with a plain error). */
        record Failure(A2aException error) implements Signal {
        }
    }

    private static final Signal.End END = new Signal.End();
    /** Where held signals are let go once their commit completes: a virtual thread each, off the store's writer. */
    private static final Executor RELEASE = r -> Thread.ofVirtual().name("stream-release").start(r);

    private final Consumer<Subscription> onCancel;
    // Guarded by this; holds what came before a listener was set, or what a poller has not taken yet.
    private final ArrayDeque<Signal> queue = new ArrayDeque<>(4);
    private Consumer<Signal> listener;
    private boolean ended;
    // Written without the lock by cancel(), which may run on a thread that must not wait for a publisher.
    private volatile boolean canceled;
    /** The signals waiting for a commit ({@link #holdUntil}); null when none is waited for. Guarded by this. */
    private ArrayDeque<Signal> held;
    /** Run once when the subscription is over; set before any binding sees it ({@link #whenOver}). */
    private volatile Runnable over = () -> {
    };

    /** @param onCancel told which subscription its reader gave up, so the task stops delivering to it */
    Subscription(Consumer<Subscription> onCancel) {
        this.onCancel = onCancel;
    }

    /**
     * A stream of one snapshot that is already over: a stream resumed with a Last-Event-ID past the
     * log of a task that has no turn running (events lost in a crash, or an id never sent) learns
     * where the task stands and ends, as the stream it resumes ended with its turn.
     */
    static Subscription snapshotOnly(StoredTask task) {
        Subscription s = closed();
        s.offer(StreamResponse.newBuilder().setTask(task.task()).build(), task.lastSeq());
        s.end();
        return s;
    }

    /** A subscription no task delivers to: what it holds is all it will ever get. */
    static Subscription closed() {
        return new Subscription(gone -> {
        });
    }

    void offer(StreamResponse event, long seq) {
        signal(new Signal.Event(event, seq), false);
    }

    void end() {
        signal(END, true);
    }

    void fail(A2aException error) {
        signal(new Signal.Failure(error), true);
    }

    private synchronized void signal(Signal s, boolean last) {
        if (ended || canceled) {
            return;
        }
        ended = last;
        if (held != null) {
            held.add(s);
            return;
        }
        deliver(s, last);
    }

    private void deliver(Signal s, boolean last) {
        if (last) {
            // Before the last signal leaves: a client that has read the end finds the stream's place free.
            over.run();
        }
        if (listener != null) {
            listener.accept(s);
        } else {
            queue.add(s);
            notifyAll();
        }
    }

    /**
     * From now on the signals wait here until {@code commit} completes, then leave in order; when it
     * fails, none of them leaves and the subscription fails with what {@code unrecorded} gives instead. Called
     * before the signal that must not leave first (a new task's first event, which names a task the
     * store may not hold yet), on the publishing thread, under the task's lock.
     *
     * <p>The held signals are let go on a virtual thread of their own, not on the store's writer
     * thread that completes the commit: a binding's listener frames and writes them, and the one
     * writer of a group commit must not do that work for every stream it commits.
     */
    void holdUntil(CompletableFuture<?> commit, Supplier<A2aException> unrecorded) {
        synchronized (this) {
            if (held == null) {
                held = new ArrayDeque<>(4);
            }
        }
        if (commit.isDone()) {
            release(commit.isCompletedExceptionally() ? unrecorded.get() : null);
        } else {
            commit.whenCompleteAsync((ok, failure) -> release(failure == null ? null : unrecorded.get()), RELEASE);
        }
    }

    private synchronized void release(A2aException unrecorded) {
        ArrayDeque<Signal> signals = held;
        held = null;
        if (signals == null || canceled) {
            return;
        }
        if (unrecorded != null) {
            ended = true;
            deliver(new Signal.Failure(unrecorded), true);
            return;
        }
        for (Signal s : signals) {
            deliver(s, !(s instanceof Signal.Event));
        }
    }

    /**
     * Runs {@code action} once the subscription is over: its last signal given (End or Failure),
     * or its reader gone ({@link #cancel}); at once when it is already over. It may run twice (an
     * end, then a cancel): the action must be idempotent.
     */
    void whenOver(Runnable action) {
        over = action;
        boolean already;
        synchronized (this) {
            already = ended;
        }
        if (already || canceled) {
            action.run();
        }
    }

    /**
     * From now on every signal goes to {@code listener}, on the thread that publishes it, in
     * order; signals that came earlier are passed on first, on this thread. The listener must not
     * block: it runs while the task's publisher waits for it.
     */
    public synchronized void deliverTo(Consumer<Signal> listener) {
        while (!queue.isEmpty() && !canceled) {
            listener.accept(queue.poll());
        }
        this.listener = listener;
    }

    /** Waits up to {@code timeout} for the next signal; null when none came in time. */
    public synchronized Signal poll(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (queue.isEmpty()) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || canceled) {
                return null;
            }
            wait(Math.max(1, left / 1_000_000), 0);
        }
        return queue.poll();
    }

    /**
     * The reader is gone (a client disconnected). PROTOCOL (A2A §3.5.2): closing one stream does
     * not affect the task or the other streams; only this subscription is dropped.
     */
    public void cancel() {
        canceled = true;
        onCancel.accept(this);
        over.run();
    }
}
