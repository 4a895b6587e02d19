package legate.mcp.upstream;

import io.opentelemetry.context.Context;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import legate.a2a.client.A2aClient;
import legate.a2a.client.ResumeAttempt;
import legate.a2a.client.StreamEnd;
import legate.a2a.client.StreamListener;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskState;

/**
 * One SendStreamingMessage to an agent, read on a virtual thread of its own and handed to the
 * tool's thread as {@link Signal}s, so that thread can wait with a timeout (heartbeats, the silence
 * gate) and can leave a stream that never ends.
 *
 * <p>A stream cut before the turn ended is resumed by the client library when the agent declares
 * resumable streams; each attempt is a {@link Resuming} signal between the events, which go on as
 * if nothing happened.
 *
 * <p>{@link #close()} stops reading: it interrupts the reader, which closes the HTTP response and
 * with it the connection. PROTOCOL (A2A streams): a task may have several streams, and closing one
 * affects neither the task nor the others, so closing is never cancelling; only CancelTask is.
 */
public final class UpstreamStream implements AutoCloseable {
    /** What the reader reports, in order; after {@link Ended} or {@link Failed} nothing follows. */
    public sealed interface Signal permits Event, Resuming, Ended, Failed, Quiet {
    }

    public record Event(StreamResponse event) implements Signal {
    }

    /** The stream was cut and the client subscribes again after the last event. */
    public record Resuming(ResumeAttempt attempt) implements Signal {
    }

    public record Ended(StreamEnd end) implements Signal {
    }

    public record Failed(RuntimeException error) implements Signal {
    }

    /** Nothing arrived in the time waited. */
    public record Quiet() implements Signal {
    }

    private final BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();
    private final Thread reader;
    private volatile boolean closed;

    private UpstreamStream(A2aClient client, SendMessageRequest request, String name) {
        // The caller's trace context goes with the stream, so the request carries its traceparent.
        this.reader = Thread.ofVirtual().name(name).unstarted(Context.current().wrap(() -> read(client, request)));
    }

    /** Sends the message and starts reading the stream. */
    public static UpstreamStream open(A2aClient client, SendMessageRequest request, String threadName) {
        UpstreamStream stream = new UpstreamStream(client, request, threadName);
        stream.reader.start();
        return stream;
    }

    /** The next signal, or {@link Quiet} when none came within {@code wait}. */
    public Signal next(Duration wait) throws InterruptedException {
        Signal s = signals.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
        return s == null ? new Quiet() : s;
    }

    @Override
    public void close() {
        closed = true;
        reader.interrupt();
    }

    private void read(A2aClient client, SendMessageRequest request) {
        try {
            signals.add(new Ended(client.stream(request, new Relay())));
        } catch (RuntimeException e) {
            if (!closed) {
                signals.add(new Failed(e));
            }
        }
    }

    /** Hands what the client reads to the tool's thread, until the stream is closed. */
    private final class Relay implements StreamListener {
        @Override
        public boolean onEvent(StreamResponse event) {
            if (closed) {
                return false;
            }
            signals.add(new Event(event));
            // PROTOCOL (A2A §7.6.1): AUTH_REQUIRED may resume on the same stream once credentials
            // arrive out of band, so the client library keeps reading; for the MCP caller the turn
            // is over (it must act), so reading stops here.
            return !(event.hasStatusUpdate()
                    && event.getStatusUpdate().getStatus().getState() == TaskState.TASK_STATE_AUTH_REQUIRED);
        }

        @Override
        public boolean onResume(ResumeAttempt attempt) {
            if (closed) {
                return false;
            }
            signals.add(new Resuming(attempt));
            return true;
        }
    }
}
