package legate.a2a.server.jsonrpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.function.Consumer;
import legate.a2a.server.task.Subscription;
import legate.a2a.server.task.Subscription.Signal;
import legate.wire.jsonrpc.JsonRpcCodec;
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
 */
final class SseResponse extends IteratingCallback implements Consumer<Signal> {
    private static final Logger LOG = LoggerFactory.getLogger(SseResponse.class);
    private static final byte[] KEEP_ALIVE = SseFrames.comment("keep-alive");
    private static final String DATA = "data: ";
    private static final String ID = "id: ";

    private final JsonNode id;
    private final String idJson;
    private final Response response;
    private final Callback done;
    private final Subscription subscription;
    private final KeepAlive keepAlive;
    private final JsonRpcDialect dialect;
    // Guarded by itself.
    private final ArrayDeque<byte[]> pending = new ArrayDeque<>(4);
    private boolean opened;
    private boolean ending;
    private boolean lastWritten;
    private volatile long lastWriteNanos = System.nanoTime();

    SseResponse(JsonNode id, Response response, Callback done, Subscription subscription, KeepAlive keepAlive,
                JsonRpcDialect dialect) {
        this.dialect = dialect;
        this.id = id;
        this.idJson = JsonRpcCodec.idJson(id);
        this.response = response;
        this.done = done;
        this.subscription = subscription;
        this.keepAlive = keepAlive;
    }

    /** Starts taking the subscription's signals; returns at once. */
    void start() {
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
                    JsonRpcHandler.reply(response, done, 200, dialect.errorJson(id, f.error().error(), f.error().getMessage()));
                    return;
                }
                response.setStatus(200);
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream");
                response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
                response.getHeaders().put("X-Accel-Buffering", "no");
                keepAlive.add(this);
            }
            switch (signal) {
                // PROTOCOL (A2A §9.4.2): each SSE event is one complete JSON-RPC response with the request's id.
                case Signal.Event e -> pending.add(frame(e));
                case Signal.Failure f -> {
                    pending.add(SseFrames.event("error", dialect.errorJson(id, f.error().error(), f.error().getMessage())));
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

    /**
     * The frame's bytes, built in one buffer: printed JSON never holds a raw line break (JSON
     * escapes them inside strings), so the payload is one data line. This path was a fifth of the
     * bytes a stream allocated when it went through a String and SseFrames' line splitting.
     *
     * <p>A task event's frame opens with {@code id: <seq>}, its sequence number in the task's log:
     * the same event has the same id on every stream, and a client cut off sends the last one it
     * read back as {@code Last-Event-ID} to resume (the resumable-streams extension, README "Tasks
     * that last"). A Message answer belongs to no task's log and has no id.
     */
    private byte[] frame(Signal.Event e) {
        StringBuilder sb = new StringBuilder(1024);
        if (e.seq() > 0) {
            sb.append(ID).append(e.seq()).append('\n');
        }
        int idLine = sb.length();
        int payload = idLine + DATA.length();
        JsonRpcCodec.openResult(idJson, sb.append(DATA));
        dialect.printEvent(e.event(), sb);
        JsonRpcCodec.closeEnvelope(sb).append("\n\n");
        for (int i = payload, end = sb.length() - 2; i < end; i++) {
            char c = sb.charAt(i);
            if (c == '\n' || c == '\r') {
                byte[] id = sb.substring(0, idLine).getBytes(StandardCharsets.UTF_8);
                byte[] data = SseFrames.data(sb.substring(payload, end));
                byte[] joined = Arrays.copyOf(id, id.length + data.length);
                System.arraycopy(data, 0, joined, id.length, data.length);
                return joined;
            }
        }
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
