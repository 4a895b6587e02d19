package legate.store.postgres;

import java.net.URI;
import java.time.Duration;
import java.util.function.IntFunction;

/**
 * Who this instance is in a group of instances on one database, and how quickly it is found gone.
 *
 * @param id INSTANCE_ID: unique among the instances (default: generated at each start)
 * @param url INSTANCE_URL for the port the server bound: where the other instances send the
 *            requests of the conversations this one runs (its JSON-RPC URL)
 * @param leaseTtl LEASE_TTL_MS: the instance is gone, and its conversations free, once its
 *                 heartbeat is this old; longer than any pause the process may take (a GC, a slow disk)
 * @param heartbeat LEASE_HEARTBEAT_MS: how often the instance renews its heartbeat and looks for
 *                  instances that are gone; at most a third of {@code leaseTtl}, so that one late
 *                  heartbeat does not lose the instance
 */
public record InstanceSettings(String id, IntFunction<URI> url, Duration leaseTtl, Duration heartbeat) {
    public static final Duration DEFAULT_LEASE_TTL = Duration.ofSeconds(10);
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(2);

    public InstanceSettings {
        if (id == null || id.isBlank() || id.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("INSTANCE_ID must not be blank");
        }
        if (heartbeat.isNegative() || heartbeat.isZero() || heartbeat.multipliedBy(3).compareTo(leaseTtl) > 0) {
            throw new IllegalArgumentException("LEASE_HEARTBEAT_MS must be above 0 and at most a third of LEASE_TTL_MS"
                    + " (got " + heartbeat.toMillis() + " and " + leaseTtl.toMillis() + ")");
        }
    }
}
