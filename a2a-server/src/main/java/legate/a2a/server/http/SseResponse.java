package legate.a2a.server.http;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.function.Consumer;
import legate.a2a.server.task.Subscription;
import legate.a2a.server.task.Subscription.Signal;
import legate.wire.sse.SseFrames;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The answer to a streaming call, written as Server-Sent Events by whichever thread publishes the
 * task's events. The request's own thread has returned by then: a held stream costs its connection
 * and a few small objects, not a parked thread, its stack and its read buffer.
 *
 * <p>Writes are asynchronous and one at a time (Jetty's rule for a response); frames published
 * while one is in flight wait here and leave together in the next write. A slow client therefore
 * never holds up the agent's turn, and a fast producer costs fewer writes.
 *
 * <p>What a frame holds is the binding's ({@link SseFraming}); everything else here is the same
 * for every binding that streams over SSE.
 */
public final class SseResponse extends IteratingCallback implements Consumer<Signal> {
    private static final Logger LOG = LoggerFactory.getLogger(SseResponse.class);
    private static final byte[] KEEP_ALIVE = SseFrames.comment("keep-alive");

    private final SseFraming framing;
    private final Response response;
    private final Callback done;
    private final Subscription subscription;
    private final KeepAlive keepAlive;
    // Guarded by itself.
    private final ArrayDeque<byte[]> pending = new ArrayDeque<>(4);
    private boolean opened;
    private boolean ending;
    private boolean lastWritten;
    private volatile long lastWriteNanos = System.nanoTime();

    public SseResponse(SseFraming framing, Response response, Callback done, Subscription subscription,
                       KeepAlive keepAlive) {
        this.framing = framing;
        this.response = response;
        this.done = done;
        this.subscription = subscription;
        this.keepAlive = keepAlive;
    }

    /** Starts taking the subscription's signals; returns at once. */
    public void start() {
        subscription.deliverTo(this);
    }

    @Override
    public void accept(Signal signal) {
        synchronized (pending) {
            if (!opened) {
                opened = true;
                if (signal instanceof Signal.Failure f) {
                    // PEER (@a2a-js/sdk 1.2.0): an error before the first event is a plain JSON body,
                    // not a stream; clients branch on Content-Type.
                    LOG.info("stream refused before its first event: {}", f.error().getMessage());
                    ending = true;
                    lastWritten = true;
                    framing.refuse(response, done, f.error());
                    return;
                }
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
                response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
                response.getHeaders().put("X-Accel-Buffering", "no");
                keepAlive.add(this);
            }
            switch (signal) {
                case Signal.Event e -> pending.add(framing.frame(e));
                case Signal.Failure f -> {
                    pending.add(framing.errorFrame(f.error()));
                    ending = true;
                }
                case Signal.End end -> ending = true;
            }
        }
        iterate();
    }

    /**
     * The server is stopping: the stream ends here, cleanly (its last chunk written, so the client
     * reads an end, not a reset) even though its task goes on; a client that resumes streams picks
     * it up elsewhere with its last event id.
     */
    void end() {
        synchronized (pending) {
            if (!opened || ending) {
                return;
            }
            ending = true;
        }
        subscription.cancel();
        iterate();
    }

    /** Called by {@link KeepAlive}: a comment after a silence, so proxies keep the stream and a gone client is noticed. */
    void keepAliveIfSilentFor(long nanos) {
        if (System.nanoTime() - lastWriteNanos < nanos) {
            return;
        }
        synchronized (pending) {
            if (ending || !pending.isEmpty()) {
                return;
            }
            pending.add(KEEP_ALIVE);
        }
        iterate();
    }

    @Override
    protected Action process() {
        ByteBuffer bytes;
        boolean last;
        synchronized (pending) {
            if (lastWritten) {
                return Action.SUCCEEDED;
            }
            if (pending.isEmpty() && !ending) {
                return Action.IDLE;
            }
            bytes = drain();
            last = ending;
            lastWritten = last;
        }
        lastWriteNanos = System.nanoTime();
        response.write(last, bytes, this);
        return Action.SCHEDULED;
    }

    private ByteBuffer drain() {
        if (pending.size() == 1) {
            return ByteBuffer.wrap(pending.poll());
        }
        if (pending.isEmpty()) {
            return BufferUtil.EMPTY_BUFFER;
        }
        int size = 0;
        for (byte[] b : pending) {
            size += b.length;
        }
        ByteBuffer joined = ByteBuffer.allocate(size);
        while (!pending.isEmpty()) {
            joined.put(pending.poll());
        }
        return joined.flip();
    }

    @Override
    protected void onCompleteSuccess() {
        keepAlive.remove(this);
        done.succeeded();
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        // The client went away: that ends this stream only, never the task.
        keepAlive.remove(this);
        subscription.cancel();
        done.failed(cause);
    }
}
