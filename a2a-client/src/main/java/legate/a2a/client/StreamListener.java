package legate.a2a.client;

import lf.a2a.v1.StreamResponse;

/**
 * Receives the events of an A2A stream (SendStreamingMessage, SubscribeToTask) one at a time, as
 * each arrives, on the thread that called the client; nothing is buffered ahead of it.
 */
@FunctionalInterface
public interface StreamListener {
    /**
     * One event: a Task, a Message, a status update or an artifact update.
     *
     * @return true to keep reading, false to close the stream now
     */
    boolean onEvent(StreamResponse event);
}
