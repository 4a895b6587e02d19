package legate.a2a.client.internal;

import com.google.protobuf.Message;
import java.time.Duration;
import legate.a2a.client.StreamEnd;

/**
 * One A2A protocol binding as the client uses it: the operations by their gRPC names, requests and
 * results as the generated protobuf messages, so a binding other than JSON-RPC can join by
 * implementing this without touching {@code A2aClient}.
 */
public interface Transport {

    /**
     * One request, one result.
     *
     * @param bound limit on the whole exchange, or null for none
     */
    <B extends Message.Builder> B call(String method, Message request, B result, Duration bound);

    /**
     * One response of a streaming operation; returns when it ends, after handing each event to
     * {@code progress}. When the progress has a last event id, the request asks to start after it
     * (SSE's {@code Last-Event-ID}).
     */
    StreamEnd stream(String method, Message request, StreamProgress progress);
}
