package legate.tap.proxy;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import legate.tap.show.ExchangeListener;
import legate.tap.show.ListenerThread;
import legate.tap.show.ShownHeaders;
import legate.wire.http.KnownHosts;

/**
 * What every client connection of one tap shares: where requests go, the request size limit, the
 * listeners, the clock, and the exchange count.
 *
 * @param listener takes each event without waiting for it to be shown ({@link ListenerThread})
 * @param headers which headers the events carry
 * @param grpcTarget where gRPC (HTTP/2) connections are passed through, or null
 * @param console where the tap says what it does with a gRPC connection (forwarded, closed, no longer read)
 * @param hosts the Host names the tap answers: on a loopback bind the loopback names only, since the
 *              tap writes the agent's own name as Host and the agent's check could not see a rebinding page's
 */
record TapContext(URI target, int maxRequestBytes, ExchangeListener listener, ShownHeaders headers, Clock clock,
                  AtomicLong exchanges, InetSocketAddress grpcTarget, PrintStream console, KnownHosts hosts) {
    /** The number of the exchange that starts now, counting from 1 across every connection. */
    long nextExchange() {
        return exchanges.incrementAndGet();
    }
}
