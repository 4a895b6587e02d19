package legate.tap;

/**
 * Receives what the tap sees, event by event: the console printer, the JSON Lines log, a test.
 *
 * <p>Called on the exchange's own thread, in the order the events happened for that exchange;
 * events of different exchanges arrive concurrently. A listener that blocks slows its exchange,
 * and one that throws is reported on standard error and does not stop the traffic.
 */
@FunctionalInterface
public interface ExchangeListener {
    void on(ExchangeEvent event);
}
