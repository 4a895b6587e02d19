package legate.a2a.server.task;

import java.util.HashMap;
import java.util.Map;
import legate.a2a.model.A2aError;

/**
 * How many turns each principal has running at once, and the most it may: a turn is counted from
 * the moment it is opened until its executor has returned. A caller over the limit is refused at
 * once, before a task exists (nothing stored, nothing run, nothing queued), with -32004: the
 * operation is valid, only not now (see {@code A2aError}).
 *
 * <p>One monitor for all principals: it is held for a map update per turn, never across a call.
 */
final class TurnQuota {
    /** No limit: a server built without one (tests, embedders) counts nothing. */
    static final int UNLIMITED = 0;

    private final int max;
    private final Map<String, Integer> running = new HashMap<>();

    /** @param max the most turns one principal may have running at once; {@link #UNLIMITED} for no limit */
    TurnQuota(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("the most running tasks per principal must be >= 0, got " + max);
        }
        this.max = max;
    }

    /** Counts one more turn for {@code owner}, or refuses it with -32004 when it has as many as it may. */
    void acquire(String owner) {
        if (max == UNLIMITED) {
            return;
        }
        synchronized (this) {
            int now = running.getOrDefault(owner, 0);
            if (now < max) {
                running.put(owner, now + 1);
                return;
            }
        }
        throw A2aError.UNSUPPORTED_OPERATION.exception((owner.isEmpty() ? "This caller" : "Caller " + owner)
                + " already has " + max + " tasks running, the most this agent runs for one caller at once;"
                + " send this again once one of them has finished, asks for input, or is canceled");
    }

    /** A turn of {@code owner} has ended. */
    void release(String owner) {
        if (max == UNLIMITED) {
            return;
        }
        synchronized (this) {
            int left = running.getOrDefault(owner, 1) - 1;
            if (left <= 0) {
                running.remove(owner);
            } else {
                running.put(owner, left);
            }
        }
    }
}
