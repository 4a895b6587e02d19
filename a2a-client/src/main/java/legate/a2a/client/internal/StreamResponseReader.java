package legate.a2a.client.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.Function;
import legate.a2a.client.InvalidResponseException;
import legate.wire.sse.SseEvent;
import legate.wire.sse.SseParser;
import lf.a2a.v1.StreamResponse;

/**
 * Reads the Server-Sent Events of one A2A stream response and hands each StreamResponse, with its
 * event id, to the stream's {@link StreamProgress} as it arrives.
 *
 * <p>PROTOCOL (A2A §9.4.2): each event's data is one JSON-RPC response holding one StreamResponse.
 * Reading stops where the progress says the turn is over. Single-use, one thread.
 */
final class StreamResponseReader {
    /** A whole ProtoJSON task with its history fits comfortably; a line beyond this is refused. */
    private static final int MAX_LINE_BYTES = 32 * 1024 * 1024;

    private final String method;
    private final StreamProgress progress;
    private final Function<String, StreamResponse> decode;

    /** @param decode one frame's data to its StreamResponse; throws the agent's error */
    StreamResponseReader(String method, StreamProgress progress, Function<String, StreamResponse> decode) {
        this.method = method;
        this.progress = progress;
        this.decode = decode;
    }

    void read(InputStream body) throws IOException {
        new SseParser(MAX_LINE_BYTES).parse(body, this::onFrame);
    }

    /** A stream request answered with one plain JSON-RPC result instead of SSE: one event. */
    void single(StreamResponse event) {
        progress.deliver(event, null);
    }

    private boolean onFrame(SseEvent frame) {
        StreamResponse event = decode.apply(frame.data());
        if (frame.event().equals("error")) {
            // PEER (@a2a-js/sdk 1.2.0): a mid-stream failure is "event: error" holding a JSON-RPC
            // error, which decode has already thrown; an error frame holding a result is nonsense.
            throw new InvalidResponseException(method + " sent an error event without a JSON-RPC error in it");
        }
        return progress.deliver(event, frame.id());
    }
}
