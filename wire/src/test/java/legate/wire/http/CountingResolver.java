package legate.wire.http;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The JDK's own resolver, noting every name it is asked to look up: the seam through which a test
 * sees that reading a Host header caused no DNS lookup. Installed for this module's tests by
 * META-INF/services (java.net.spi, JDK 18+); every lookup is passed to the built-in resolver.
 */
public final class CountingResolver extends InetAddressResolverProvider {
    /** The names looked up so far, lower case. */
    static final Set<String> LOOKED_UP = ConcurrentHashMap.newKeySet();

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver builtIn = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                LOOKED_UP.add(host.toLowerCase(java.util.Locale.ROOT));
                return builtIn.lookupByName(host, policy);
            }

            @Override
            public String lookupByAddress(byte[] addr) throws UnknownHostException {
                return builtIn.lookupByAddress(addr);
            }
        };
    }

    @Override
    public String name() {
        return "legate-test-counting";
    }
}
