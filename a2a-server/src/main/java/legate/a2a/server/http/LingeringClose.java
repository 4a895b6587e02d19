package legate.a2a.server.http;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * What follows an answer sent before the request's body was read (413, or 400 for a wrong
 * Content-Type): the rest of the body is read and thrown away, for a bounded time and number of
 * bytes, and only then is the exchange ended and the connection closed.
 *
 * <p>Why: RFC 9112 §9.6. A server that closes a connection with the client's bytes still unread
 * makes its TCP stack answer with a reset, and a reset destroys whatever the client had not read
 * yet, the answer included. A client that writes its whole body before reading (most simple
 * clients do) then sees "broken pipe" instead of the 413. Reading on until the body ends lets the
 * close be an orderly one. The bounds keep a client that never stops sending from holding the
 * connection: after them the connection is closed as before.
 */
public final class LingeringClose implements Runnable {
    /** How long the rest of a refused body is read before the connection is closed regardless. */
    public static final Duration MAX_TIME = Duration.ofSeconds(5);
    /** How much of it is read before the connection is closed regardless. */
    public static final long MAX_BYTES = 64L * 1024 * 1024;

    private final Request request;
    private final Callback done;
    private final AtomicBoolean finished = new AtomicBoolean();
    private Scheduler.Task deadline;
    private long discarded;

    private LingeringClose(Request request, Callback done) {
        this.request = request;
        this.done = done;
    }

    /** A callback for the answer's write that, once the answer is out, reads the body to its end, then completes {@code done}. */
    public static Callback after(Request request, Callback done, Scheduler scheduler) {
        LingeringClose linger = new LingeringClose(request, done);
        return Callback.from(() -> {
            linger.deadline = scheduler.schedule(linger::finish, MAX_TIME.toMillis(), TimeUnit.MILLISECONDS);
            linger.run();
        }, done::failed);
    }

    @Override
    public void run() {
        while (!finished.get()) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(this);
                return;
            }
            boolean end = chunk.isLast() || Content.Chunk.isFailure(chunk);
            discarded += chunk.remaining();
            chunk.release();
            if (end || discarded > MAX_BYTES) {
                finish();
                return;
            }
        }
    }

    private void finish() {
        if (finished.compareAndSet(false, true)) {
            if (deadline != null) {
                deadline.cancel();
            }
            done.succeeded();
        }
    }
}
