package legate.a2a.client;

import lf.a2a.v1.StreamResponse;

/**
 * Receives the events of an A2A stream (SendStreamingMessage, SubscribeToTask) one at a time, as
 * each arrives, on the thread that called the client; nothing is buffered ahead of it.
 *
 * <p>A stream the client resumes (see {@link ClientConfig#resumption()}) stays one stream for its
 * listener: the events after the cut arrive through the same methods, none twice, and
 * {@link #onResume} is told of each attempt in between.
 */
@FunctionalInterface
public interface StreamListener {
    /**
     * One event: a Task, a Message, a status update or an artifact update.
     *
     * @return true to keep reading, false to close the stream now
     */
    boolean onEvent(StreamResponse event);

    /**
     * One event with the id of its SSE frame: the last {@code id:} the stream carried (HTML
     * §9.2.6), which a Legate agent sets to the task event's sequence number; null when the agent
     * sends none. The client calls this method; override it to keep the id, for instance to pass it
     * to {@link A2aClient#subscribe(String, String, StreamListener)} later.
     *
     * @return true to keep reading, false to close the stream now
     */
    default boolean onEvent(StreamResponse event, String eventId) {
        return onEvent(event);
    }

    /**
     * The stream was cut before its turn ended and the client is about to subscribe again after the
     * last event received; called once per attempt, before its wait.
     *
     * @return true to go on, false to give the stream up as cut
     */
    default boolean onResume(ResumeAttempt attempt) {
        return true;
    }
}
