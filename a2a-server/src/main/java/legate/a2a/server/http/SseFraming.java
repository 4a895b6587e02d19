package legate.a2a.server.http;

import legate.a2a.model.A2aException;
import legate.a2a.server.task.Subscription.Signal;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * How one binding writes a stream of task events as Server-Sent Events: what each frame holds (a
 * JSON-RPC response on JSON-RPC, a bare StreamResponse on HTTP+JSON), the frame of an error in mid
 * stream, and the plain answer of a stream refused before its first event. {@link SseResponse} does
 * the rest, the same for every binding: ordering, batching, keep-alive, the end.
 */
public interface SseFraming {
    /**
     * The bytes of one event's frame, ending with its blank line. A task event's frame opens with
     * {@code id: <seq>} (the resumable-streams extension, README "Tasks that last"); a Message
     * answer ({@code seq} 0) has none.
     */
    byte[] frame(Signal.Event event);

    /** The frame of a failure after the stream opened; the stream ends after it. */
    byte[] errorFrame(A2aException error);

    /**
     * Answers a stream that failed before its first event with a plain body (PEER @a2a-js/sdk
     * 1.2.0: clients branch on the Content-Type), completing {@code done}.
     */
    void refuse(Response response, Callback done, A2aException error);
}
