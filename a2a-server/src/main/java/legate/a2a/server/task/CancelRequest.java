package legate.a2a.server.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.CancelSignal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cancel signal of one turn, raised by CancelTask in two steps: {@link #request} under the
 * task's lock, so the turn's end and the cancel are ordered, then {@link #fire} outside it, so the
 * executor's callbacks (the bridge's {@code session/cancel}) never run under a server lock.
 */
final class CancelRequest implements CancelSignal {
    private static final Logger LOG = LoggerFactory.getLogger(CancelRequest.class);

    private final CountDownLatch requested = new CountDownLatch(1);
    // Guarded by this; null once fired (or before the first callback).
    private List<Runnable> callbacks;
    private boolean fired;

    @Override
    public boolean isRequested() {
        return requested.getCount() == 0;
    }

    @Override
    public boolean await(Duration timeout) throws InterruptedException {
        return requested.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    @Override
    public void onCancel(Runnable callback) {
        synchronized (this) {
            if (!fired) {
                if (callbacks == null) {
                    callbacks = new ArrayList<>(2);
                }
                callbacks.add(callback);
                return;
            }
        }
        runQuietly(callback);
    }

    /** From now on the turn sees the cancel. */
    void request() {
        requested.countDown();
    }

    /** Runs the callbacks registered so far on this thread; later ones run as they register. */
    void fire() {
        List<Runnable> due;
        synchronized (this) {
            if (fired) {
                return;
            }
            fired = true;
            due = callbacks;
            callbacks = null;
        }
        if (due != null) {
            for (Runnable r : due) {
                runQuietly(r);
            }
        }
    }

    private static void runQuietly(Runnable callback) {
        try {
            callback.run();
        } catch (RuntimeException e) {
            LOG.warn("a cancel callback failed: {}", e.toString());
        }
    }
}
