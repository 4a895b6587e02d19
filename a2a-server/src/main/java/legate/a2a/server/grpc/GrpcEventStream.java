package legate.a2a.server.grpc;

import io.grpc.stub.ServerCallStreamObserver;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;
import legate.a2a.model.A2aException;
import legate.a2a.server.task.Subscription;
import legate.a2a.server.task.Subscription.Signal;
import lf.a2a.v1.StreamResponse;

/**
 * The answer to a server-streaming call (SendStreamingMessage, SubscribeToTask): each event of the
 * subscription is one response message, written by whichever thread publishes it, and the call is
 * completed after the last (A2A §10: a stream ends when the server completes the call). The
 * calling thread has returned by then: a held stream costs no thread of its own.
 *
 * <p>PROTOCOL (A2A §3.5.2): a client that cancels its call drops this subscription only, never the
 * task or its other streams. gRPC buffers what the client has not read yet, so a slow client never
 * holds up the agent's turn.
 */
final class GrpcEventStream implements Consumer<Signal> {
    private final ServerCallStreamObserver<StreamResponse> call;
    private final Subscription subscription;
    private final Function<A2aException, RuntimeException> toStatus;
    private final Set<GrpcEventStream> open;
    // Guarded by this: a publisher and the drain may both end the call, and the observer is not thread-safe.
    private boolean over;
    private boolean sent;
    private final AtomicLong first;

    /**
     * @param toStatus the gRPC status an error ends the call with
     * @param open the binding's open streams, which this one joins until it ends (the drain ends them)
     * @param first where the id of the first message goes, for the response headers ({@link FirstEventIds})
     */
    GrpcEventStream(ServerCallStreamObserver<StreamResponse> call, Subscription subscription,
                    Function<A2aException, RuntimeException> toStatus, Set<GrpcEventStream> open, AtomicLong first) {
        this.first = first;
        this.call = call;
        this.subscription = subscription;
        this.toStatus = toStatus;
        this.open = open;
    }

    /** Starts taking the subscription's signals; returns at once. */
    void start() {
        open.add(this);
        call.setOnCancelHandler(this::cancelled);
        subscription.deliverTo(this);
    }

    @Override
    public synchronized void accept(Signal signal) {
        if (over) {
            return;
        }
        switch (signal) {
            case Signal.Event e -> {
                if (!sent) {
                    // The response headers leave with this message and name its id (FirstEventIds).
                    first.compareAndSet(0, e.seq());
                    sent = true;
                }
                call.onNext(e.event());
            }
            case Signal.End end -> finish(null);
            // Before the first event or after some: gRPC has one way to fail a call, its status.
            case Signal.Failure f -> finish(toStatus.apply(f.error()));
        }
    }

    /**
     * The server is stopping: the call completes here, cleanly, after the events already sent,
     * though its task goes on; the client can subscribe again elsewhere or after the restart.
     */
    void end() {
        synchronized (this) {
            if (over) {
                return;
            }
            finish(null);
        }
        subscription.cancel();
    }

    private void finish(RuntimeException failure) {
        over = true;
        open.remove(this);
        if (failure == null) {
            call.onCompleted();
        } else {
            call.onError(failure);
        }
    }

    /** The client cancelled, or its connection went away. */
    private void cancelled() {
        synchronized (this) {
            over = true;
            open.remove(this);
        }
        subscription.cancel();
    }
}
