package legate.tap.show;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Receives what the tap sees, event by event: the console printer, the JSON Lines log, a test.
 *
 * <p>Called on the tap's one listener thread ({@link ListenerThread}), one event at a time, in the
 * order the events happened for each exchange; events of concurrent exchanges interleave event by
 * event. A listener that is slow delays the events after it, not the traffic, until the listener
 * thread's queue is full; one that throws is reported on standard error and does not stop the traffic.
 */
@FunctionalInterface
public interface ExchangeListener {
    void on(ExchangeEvent event);

    /**
     * The event with its body, or its frame's data, as {@link ProtocolCheck} read it, so a listener
     * that wants what a body says does not parse it a second time on the listener thread.
     *
     * @param body the body as JSON; null when there is none, it is not JSON, or it was cut short
     */
    default void on(ExchangeEvent event, JsonNode body) {
        on(event);
    }

    /**
     * Every event handed over so far has been delivered: a listener that holds its output back
     * (the console printer) writes it now. Called on the listener thread after each batch of events,
     * so under load the console gets one write per batch instead of one per event.
     */
    default void caughtUp() {
    }
}
