package legate.a2a.server.push;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A webhook's answer body, read and thrown away up to {@code limit} bytes: only the status counts,
 * and past the limit the body is dropped (the connection with it) rather than read to its end.
 * The time it may take is bounded by the attempt's deadline in {@link WebhookPost}.
 */
final class DiscardedBody implements HttpResponse.BodySubscriber<Void> {
    /** More than any acknowledgement a receiver has reason to send. */
    static final long LIMIT = 64 * 1024;

    private final long limit;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private Flow.Subscription subscription;
    private long read;

    DiscardedBody(long limit) {
        this.limit = limit;
    }

    static HttpResponse.BodyHandler<Void> handler() {
        return info -> new DiscardedBody(LIMIT);
    }

    @Override
    public CompletionStage<Void> getBody() {
        return done;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
        for (ByteBuffer b : buffers) {
            read += b.remaining();
        }
        if (read > limit) {
            subscription.cancel();
            done.complete(null);
        } else {
            subscription.request(1);
        }
    }

    @Override
    public void onError(Throwable failure) {
        done.completeExceptionally(failure);
    }

    @Override
    public void onComplete() {
        done.complete(null);
    }
}
