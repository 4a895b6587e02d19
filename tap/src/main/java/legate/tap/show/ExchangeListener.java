package legate.tap.show;

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
     * Every event handed over so far has been delivered: a listener that holds its output back
     * (the console printer) writes it now. Called on the listener thread after each batch of events,
     * so under load the console gets one write per batch instead of one per event.
     */
    default void caughtUp() {
    }
}
