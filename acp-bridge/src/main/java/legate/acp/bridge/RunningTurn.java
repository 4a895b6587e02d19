package legate.acp.bridge;

import java.util.concurrent.CompletableFuture;
import legate.acp.adapter.AdapterSession;

/**
 * The cancel state of one task's turn on the bridge. A cancel can land at any point: while the turn
 * waits for the conversation, while the agent starts, or during the prompt. Before the prompt it is
 * recorded and the turn stops short of prompting; during the prompt it becomes
 * {@code session/cancel}.
 */
final class RunningTurn {
    /** Completes when a cancel is asked, so a turn waiting in the conversation's queue can give up at once. */
    final CompletableFuture<Void> cancelled = new CompletableFuture<>();
    private boolean cancelAsked;
    private AdapterSession prompting;

    /** Records the session the prompt goes to; false when a cancel came first and no prompt may be sent. */
    synchronized boolean beginPrompt(AdapterSession session) {
        if (cancelAsked) {
            return false;
        }
        prompting = session;
        return true;
    }

    /** Returns where the cancel landed: "prompting" (session/cancel was sent) or "before the prompt". */
    String cancel() {
        AdapterSession session;
        synchronized (this) {
            cancelAsked = true;
            session = prompting;
        }
        cancelled.complete(null);
        if (session != null) {
            session.cancel();
            return "prompting";
        }
        return "before the prompt";
    }

    synchronized boolean cancelAsked() {
        return cancelAsked;
    }
}
