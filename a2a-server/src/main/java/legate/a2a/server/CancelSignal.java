package legate.a2a.server;

import java.time.Duration;

/**
 * The cancel of one turn as its executor sees it: raised by the server when a client's CancelTask
 * (A2A §3.1.5) reaches the task while this turn runs, or before it has even started.
 *
 * <p>The server creates the signal with the turn, before the executor runs, so a cancel sent the
 * moment the caller learns the task id is never lost. Raising it does not stop anything by itself:
 * the executor notices (by polling {@link #isRequested}, waiting in {@link #await}, or through a
 * callback) and ends its turn, normally with TASK_STATE_CANCELED. A turn that returns without a
 * terminal state after a cancel is ended CANCELED by the server.
 *
 * <p>Thread-safety: every method may be called from any thread. Callbacks run once, on the thread
 * of the CancelTask call, outside every lock of the server; they must not block for long.
 */
public interface CancelSignal {

    /** True once a client has asked to cancel this turn's task. */
    boolean isRequested();

    /**
     * Waits up to {@code timeout} for a cancel; returns true as soon as one is requested (at once if
     * it already was), false when the time ran out. A zero timeout only looks.
     */
    boolean await(Duration timeout) throws InterruptedException;

    /**
     * Runs {@code callback} when a cancel is requested: on the cancelling thread, or at once on this
     * thread when the cancel came first. An exception from the callback is logged, not rethrown.
     */
    void onCancel(Runnable callback);
}
