package legate.a2a.server.task;

import java.util.HashMap;
import java.util.Map;
import legate.a2a.model.A2aError;

/**
 * How many streams (SendStreamingMessage, SubscribeToTask, on every binding) each principal holds
 * open at once, and the most it may: a stream is counted from the call until its subscription is
 * over (its last event given to the binding) or its reader has gone. A call over the limit is
 * refused before its stream starts and before anything runs, with -32004: valid, only not now.
 *
 * <p>Why a limit: a held stream costs the server a connection and about 16 KiB (docs/benchmarks.md,
 * workload 4) for as long as its task runs or is followed, keep-alive comments stop it from ever
 * going idle, and a SubscribeToTask of a parked task is held until the task ends. Without a limit
 * one caller could hold streams until the server's memory or descriptors ran out.
 *
 * <p>One monitor for all principals: it is held for a map update per stream, never across a call.
 */
final class StreamQuota {
    /** No limit: a server built without one (tests, embedders) counts nothing. */
    static final int UNLIMITED = 0;

    private final int max;
    private final Map<String, Integer> held = new HashMap<>();

    /** @param max the most streams one principal may hold open at once; {@link #UNLIMITED} for no limit */
    StreamQuota(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("the most open streams per principal must be >= 0, got " + max);
        }
        this.max = max;
    }

    /**
     * Counts one more open stream for {@code owner}, or refuses it with -32004 when it holds as many
     * as it may.
     *
     * @return what gives the place back, once (later calls do nothing)
     */
    Runnable hold(String owner) {
        if (max == UNLIMITED) {
            return () -> {
            };
        }
        synchronized (this) {
            int now = held.getOrDefault(owner, 0);
            if (now < max) {
                held.put(owner, now + 1);
                return new Release(owner);
            }
        }
        throw A2aError.UNSUPPORTED_OPERATION.exception((owner.isEmpty() ? "This caller" : "Caller " + owner)
                + " already holds " + max + " streams open, the most this agent keeps open for one caller at once"
                + " (MAX_STREAMS_PER_PRINCIPAL); close a stream or wait for one to end, then send this again");
    }

    private synchronized void release(String owner) {
        held.computeIfPresent(owner, (o, n) -> n <= 1 ? null : n - 1);
    }

    /** One stream's place; giving it back twice (the stream ended, then its reader left) counts once. */
    private final class Release implements Runnable {
        private final String owner;
        private boolean done;

        Release(String owner) {
            this.owner = owner;
        }

        @Override
        public void run() {
            synchronized (this) {
                if (done) {
                    return;
                }
                done = true;
            }
            release(owner);
        }
    }
}
