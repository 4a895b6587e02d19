package legate.a2a.client.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.Function;
import legate.a2a.client.InvalidResponseException;
import legate.a2a.client.StreamEnd;
import legate.a2a.client.StreamListener;
import legate.a2a.model.TaskStates;
import legate.wire.sse.SseEvent;
import legate.wire.sse.SseParser;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskState;

/**
 * Reads the Server-Sent Events of one A2A stream and hands each StreamResponse to the listener as
 * it arrives, keeping track of the task's state to tell a finished turn from a stream the agent
 * closed too soon.
 *
 * <p>PROTOCOL (A2A §3.1.2, §9.4.2): each event's data is one JSON-RPC response holding one
 * StreamResponse; a Message ends the stream, and nothing follows a terminal state. Reading stops
 * there and also at INPUT_REQUIRED, where the turn is over (PEER @a2a-js/sdk 1.2.0 closes there,
 * and the spec's §11.7 allows closing), so a server that keeps the connection open cannot hold the
 * caller. AUTH_REQUIRED keeps reading: credentials may arrive out of band and the task resume
 * (§7.6.1). Single-use, one thread.
 */
final class StreamResponseReader {
    /** A whole ProtoJSON task with its history fits comfortably; a line beyond this is refused. */
    private static final int MAX_LINE_BYTES = 32 * 1024 * 1024;

    private final String method;
    private final StreamListener listener;
    private final boolean snapshotEndsTurn;
    private final Function<String, StreamResponse> decode;
    private int events;
    private TaskState lastState = TaskState.TASK_STATE_UNSPECIFIED;
    private StreamEnd.How ended;

    /**
     * @param snapshotEndsTurn true for SubscribeToTask, whose Task snapshot states where the task is;
     *     false for SendStreamingMessage, where a continuation opens with the stored task still in
     *     the INPUT_REQUIRED that this very message answers
     * @param decode one frame's data to its StreamResponse; throws the agent's error
     */
    StreamResponseReader(String method, StreamListener listener, boolean snapshotEndsTurn,
                         Function<String, StreamResponse> decode) {
        this.method = method;
        this.listener = listener;
        this.snapshotEndsTurn = snapshotEndsTurn;
        this.decode = decode;
    }

    StreamEnd read(InputStream body) throws IOException {
        new SseParser(MAX_LINE_BYTES).parse(body, this::onFrame);
        return end();
    }

    /** A stream request answered with one plain JSON-RPC result instead of SSE: one event. */
    StreamEnd single(StreamResponse event) {
        deliver(event);
        return end();
    }

    private boolean onFrame(SseEvent frame) {
        StreamResponse event = decode.apply(frame.data());
        if (frame.event().equals("error")) {
            // PEER (@a2a-js/sdk 1.2.0): a mid-stream failure is "event: error" holding a JSON-RPC
            // error, which decode has already thrown; an error frame holding a result is nonsense.
            throw new InvalidResponseException(method + " sent an error event without a JSON-RPC error in it");
        }
        return deliver(event);
    }

    private boolean deliver(StreamResponse event) {
        events++;
        switch (event.getPayloadCase()) {
            case TASK -> {
                lastState = event.getTask().getStatus().getState();
                boolean over = TaskStates.isTerminal(lastState) || (snapshotEndsTurn && TaskStates.isInterrupted(lastState));
                ended = over ? StreamEnd.How.TURN_ENDED : null;
            }
            case STATUS_UPDATE -> {
                lastState = event.getStatusUpdate().getStatus().getState();
                ended = TaskStates.endsTurn(lastState) ? StreamEnd.How.TURN_ENDED : null;
            }
            case MESSAGE -> ended = StreamEnd.How.MESSAGE;
            case ARTIFACT_UPDATE, PAYLOAD_NOT_SET -> {
                // An artifact does not move the task; an unknown payload (a newer peer) is passed on.
            }
        }
        if (!listener.onEvent(event)) {
            if (ended == null) {
                ended = StreamEnd.How.STOPPED;
            }
            return false;
        }
        // AUTH_REQUIRED ends the turn for the caller, but the stream may yet carry the resumption.
        return ended == null || (ended == StreamEnd.How.TURN_ENDED && lastState == TaskState.TASK_STATE_AUTH_REQUIRED);
    }

    private StreamEnd end() {
        return new StreamEnd(ended == null ? StreamEnd.How.CLOSED_EARLY : ended, events, lastState);
    }
}
