package legate.a2a.server.push;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * How a webhook's host name becomes addresses, for {@link WebhookGuard} to check: the system's
 * resolver in production (the one the HTTP client connects through, so both see the same cached
 * answer), a fixed table in tests that must name a private address without a DNS server.
 */
@FunctionalInterface
public interface HostResolver {
    /** The system resolver: {@link InetAddress#getAllByName}. */
    HostResolver SYSTEM = host -> List.of(InetAddress.getAllByName(host));

    /** Every address {@code host} resolves to; an address literal resolves to itself. */
    List<InetAddress> resolve(String host) throws UnknownHostException;
}
