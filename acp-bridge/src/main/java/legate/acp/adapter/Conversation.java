package legate.acp.adapter;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import legate.acp.permission.SessionRoot;

/**
 * One A2A conversation (contextId) on the bridge: its working directory, the agent session that
 * remembers its turns, the queue that lets one turn run at a time, and the tasks still open in it.
 *
 * <p>Turns are serialised without a lock held across the turn: each turn waits for the one before it
 * (a chain of futures), so a turn still waiting can give up at once when its task is canceled.
 */
public final class Conversation {
    final String contextId;
    public final UsageBudget budget = new UsageBudget();
    private final Set<String> openTasks = new HashSet<>();
    private SessionRoot root;
    private AdapterSession session;
    private ConversationRecord record;
    private CompletableFuture<Void> tail = CompletableFuture.completedFuture(null);
    private Instant lastActive;

    Conversation(String contextId, Instant now) {
        this.contextId = contextId;
        this.lastActive = now;
    }

    /** A place in the queue of turns. */
    public final class Turn {
        private final CompletableFuture<Void> before;
        private final CompletableFuture<Void> mine;
        private volatile boolean held;

        private Turn(CompletableFuture<Void> before, CompletableFuture<Void> mine) {
            this.before = before;
            this.mine = mine;
        }

        /**
         * Waits for the turn before this one; false when {@code cancelled} completed first, in which
         * case this place passes on to the next turn as soon as the one before ends.
         */
        public boolean await(CompletableFuture<Void> cancelled) throws InterruptedException {
            try {
                CompletableFuture.anyOf(before, cancelled).get();
            } catch (java.util.concurrent.ExecutionException e) {
                // neither future fails
            }
            if (before.isDone()) {
                held = true;
                return true;
            }
            before.whenComplete((v, e) -> mine.complete(null));
            return false;
        }

        /** Lets the next turn run; only the holder releases, and releasing twice is harmless. */
        public void release(Instant now) {
            if (held) {
                touch(now);
                mine.complete(null);
            }
        }
    }

    public synchronized Turn enter(Instant now) {
        lastActive = now;
        CompletableFuture<Void> mine = new CompletableFuture<>();
        Turn t = new Turn(tail, mine);
        tail = mine;
        return t;
    }

    synchronized void touch(Instant now) {
        lastActive = now;
    }

    synchronized SessionRoot root() {
        return root;
    }

    synchronized void root(SessionRoot r) {
        this.root = r;
    }

    /** The record of the conversation's latest session in this process; null before its first. */
    synchronized ConversationRecord record() {
        return record;
    }

    synchronized void record(ConversationRecord r) {
        this.record = r;
    }

    public synchronized AdapterSession session() {
        return session;
    }

    synchronized void session(AdapterSession s) {
        this.session = s;
    }

    /** Detaches the session when it is still {@code expected}; the caller stops it. */
    synchronized boolean detach(AdapterSession expected) {
        if (session != expected) {
            return false;
        }
        session = null;
        return true;
    }

    synchronized void taskOpened(String taskId, Instant now) {
        openTasks.add(taskId);
        lastActive = now;
    }

    synchronized void taskClosed(String taskId, Instant now) {
        openTasks.remove(taskId);
        lastActive = now;
    }

    /**
     * Detaches and returns the session when nothing holds it: no turn running or waiting, no task
     * open (INPUT_REQUIRED included), and idle since {@code cutoff}. Null otherwise.
     */
    synchronized AdapterSession detachIfIdleSince(Instant cutoff) {
        if (session == null || !tail.isDone() || !openTasks.isEmpty() || lastActive.isAfter(cutoff)) {
            return null;
        }
        AdapterSession s = session;
        session = null;
        return s;
    }

    synchronized Instant lastActive() {
        return lastActive;
    }
}
