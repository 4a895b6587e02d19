package legate.a2a.server.task;

import java.util.HashMap;
import java.util.Map;
import legate.a2a.model.A2aError;

/**
 * How many executions each principal has running at once, and the most it may: an execution is
 * counted from the moment its turn is opened until its executor has returned, except while it waits
 * at a question ({@code EventSink.awaitReply}). A caller over the limit is refused at once, before a
 * task exists (nothing stored, nothing run, nothing queued), with -32004: the operation is valid,
 * only not now (see {@code A2aError}).
 *
 * <p>A reply to an execution waiting at a question is never refused: the execution takes its place
 * back even past the limit. Refusing it would leave the execution waiting for an answer that was
 * already sent, holding its agent process, with the caller told to retry something that only ends
 * the task when the caller gives up.
 *
 * <p>One monitor for all principals: it is held for a map update per turn, never across a call.
 */
final class TurnQuota {
    /** No limit: a server built without one (tests, embedders) counts nothing. */
    static final int UNLIMITED = 0;

    private final int max;
    private final Map<String, Integer> running = new HashMap<>();

    /** @param max the most executions one principal may have running at once; {@link #UNLIMITED} for no limit */
    TurnQuota(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("the most running tasks per principal must be >= 0, got " + max);
        }
        this.max = max;
    }

    /**
     * Counts one more execution for {@code owner}, or refuses it with -32004 when it has as many as
     * it may.
     *
     * @return the execution's place, given back when it ends (and while it waits at a question)
     */
    Place acquire(String owner) {
        if (max == UNLIMITED) {
            return new Place(this, owner);
        }
        synchronized (this) {
            int now = running.getOrDefault(owner, 0);
            if (now < max) {
                running.put(owner, now + 1);
                return new Place(this, owner);
            }
        }
        throw A2aError.UNSUPPORTED_OPERATION.exception((owner.isEmpty() ? "This caller" : "Caller " + owner)
                + " already has " + max + " tasks running, the most this agent runs for one caller at once"
                + " (MAX_TASKS_PER_PRINCIPAL); send this again once one of them has finished, asks for input,"
                + " or is canceled");
    }

    private synchronized void add(String owner) {
        if (max != UNLIMITED) {
            running.merge(owner, 1, Integer::sum);
        }
    }

    private synchronized void remove(String owner) {
        if (max != UNLIMITED) {
            running.computeIfPresent(owner, (o, n) -> n <= 1 ? null : n - 1);
        }
    }

    /**
     * One execution's place in its principal's count, shared by the turns a question hands the
     * execution over to (as its cancel signal is). Giving back and taking back are idempotent, so
     * however many paths end or resume an execution, it is counted once or not at all.
     */
    static final class Place {
        private final TurnQuota quota;
        private final String owner;
        private boolean held = true;

        private Place(TurnQuota quota, String owner) {
            this.quota = quota;
            this.owner = owner;
        }

        /** The execution ended, or waits at a question: it no longer counts. */
        synchronized void giveBack() {
            if (held) {
                held = false;
                quota.remove(owner);
            }
        }

        /** The execution runs again (a reply came, or it stopped waiting): it counts, past the limit if need be. */
        synchronized void takeBack() {
            if (!held) {
                held = true;
                quota.add(owner);
            }
        }
    }
}
