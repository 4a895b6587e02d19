package legate.acp.bridge;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import legate.a2a.server.CancelSignal;
import legate.acp.adapter.AdapterSession;

/**
 * What a cancel does to one task's turn on the bridge, read from the turn's {@link CancelSignal}.
 * A cancel can land at any point: while the turn waits for the conversation, while the agent
 * starts, or during the prompt. Before the prompt it stops the turn short of prompting; during the
 * prompt it becomes {@code session/cancel}.
 */
final class RunningTurn {
    /** Completes when a cancel is asked, so a turn waiting in the conversation's queue can give up at once. */
    final CompletableFuture<Void> cancelled = new CompletableFuture<>();
    private final CancelSignal signal;
    private final Consumer<String> landed;
    private AdapterSession prompting;

    private RunningTurn(CancelSignal signal, Consumer<String> landed) {
        this.signal = signal;
        this.landed = landed;
    }

    /**
     * Follows {@code signal} for one turn; {@code landed} is told where a cancel landed: "prompting"
     * (session/cancel was sent) or "before the prompt". A cancel that came before the turn started
     * lands at once, on this thread.
     */
    static RunningTurn following(CancelSignal signal, Consumer<String> landed) {
        RunningTurn turn = new RunningTurn(signal, landed);
        signal.onCancel(turn::cancel);
        return turn;
    }

    /** Records the session the prompt goes to; false when a cancel came first and no prompt may be sent. */
    synchronized boolean beginPrompt(AdapterSession session) {
        // The signal is raised before its callbacks run: if it is not raised yet, the callback will
        // find this session.
        if (signal.isRequested()) {
            return false;
        }
        prompting = session;
        return true;
    }

    boolean cancelAsked() {
        return signal.isRequested();
    }

    private void cancel() {
        AdapterSession session;
        synchronized (this) {
            session = prompting;
        }
        cancelled.complete(null);
        if (session != null) {
            session.cancel();
            landed.accept("prompting");
        } else {
            landed.accept("before the prompt");
        }
    }
}
