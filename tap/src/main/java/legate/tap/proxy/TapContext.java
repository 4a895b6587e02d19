package legate.tap.proxy;

import java.net.URI;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import legate.tap.show.ExchangeListener;
import legate.tap.show.ListenerThread;
import legate.tap.show.ShownHeaders;

/**
 * What every client connection of one tap shares: where requests go, the request size limit, the
 * listeners, the clock, and the exchange count.
 *
 * @param listener takes each event without waiting for it to be shown ({@link ListenerThread})
 * @param shownHeaders picks the headers events carry, credentials masked
 */
record TapContext(URI target, int maxRequestBytes, ExchangeListener listener, Clock clock, AtomicLong exchanges,
                  ShownHeaders shownHeaders) {
    /** The number of the exchange that starts now, counting from 1 across every connection. */
    long nextExchange() {
        return exchanges.incrementAndGet();
    }
}
