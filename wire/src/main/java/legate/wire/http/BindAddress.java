package legate.wire.http;

/**
 * The address a server binds, seen from the client that must dial it. A bind address is not
 * always one a client can dial: a wildcard ({@code 0.0.0.0}, {@code ::}, {@code [::]}) means every
 * interface of this machine and names none of them, and an IPv6 literal must be bracketed in a URL
 * (RFC 3986 §3.2.2). Servers use this to print the URL they listen on and to fill in a default
 * public URL.
 */
public final class BindAddress {
    /** The one address every wildcard bind is reachable at from this machine, IPv6 dual-stack binds included. */
    private static final String LOOPBACK = "127.0.0.1";

    private BindAddress() {
    }

    /**
     * {@code http://host:port} followed by {@code path}, with a wildcard bind replaced by the
     * loopback address and an IPv6 literal in brackets.
     *
     * @param host the address as given to bind (a name, an IPv4 or IPv6 literal, bracketed or not)
     * @param port the bound port
     * @param path the path, starting with {@code /}
     */
    public static String dialableUrl(String host, int port, String path) {
        return dialableUrl(false, host, port, path);
    }

    /** The same, {@code https://} when the server serves TLS. */
    public static String dialableUrl(boolean https, String host, int port, String path) {
        return (https ? "https://" : "http://") + dialableHost(host) + ":" + port + path;
    }

    private static String dialableHost(String host) {
        if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            return LOOPBACK;
        }
        return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
    }
}
