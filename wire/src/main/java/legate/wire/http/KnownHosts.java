package legate.wire.http;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The host names a listener answers to, checked against a request's {@code Host} header (or HTTP/2
 * {@code :authority}): the defence against DNS rebinding that every Legate listener shares (the A2A
 * server, the MCP endpoint, the tap's inspector).
 *
 * <p>Why: a web page can point a name it controls at 127.0.0.1 once the browser has loaded it; its
 * scripts then reach a local server as "same origin", and the browser sends the attacker's name as
 * Host. A listener that answers only the names it is known by refuses them. The loopback names are
 * always known, on any bind: a rebinding page cannot make the browser send them.
 *
 * <p>An entry is a name (any port) or {@code name:port} (that port only); names compare without
 * case, and IP literals by address ({@code [::1]} and {@code [0:0:0:0:0:0:0:1]} are one). A lookup
 * is one or two hash-set probes; an address is parsed only when those miss, which a loopback or
 * configured name never does.
 */
public final class KnownHosts {
    /** What a browser sends for this machine's own loopback, whatever the bind: always answered. */
    public static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "[::1]");
    private static final KnownHosts ANY = new KnownHosts(Set.of(), Set.of(), true);

    private final Set<String> entries;
    private final Set<InetAddress> addresses;
    private final boolean any;

    private KnownHosts(Set<String> entries, Set<InetAddress> addresses, boolean any) {
        this.entries = entries;
        this.addresses = addresses;
        this.any = any;
    }

    /** Answers every Host: the check is off ({@code *} in an allowed-hosts list). */
    public static KnownHosts any() {
        return ANY;
    }

    /** The loopback names and {@code names} (each a name or name:port; {@code *} turns the check off). */
    public static KnownHosts of(Collection<String> names) {
        Set<String> entries = new HashSet<>(LOOPBACK_NAMES);
        Set<InetAddress> addresses = new HashSet<>();
        for (String raw : names) {
            String n = raw.strip().toLowerCase(Locale.ROOT);
            if (n.equals("*")) {
                return ANY;
            }
            if (n.isEmpty()) {
                continue;
            }
            entries.add(n);
            InetAddress literal = literal(nameOf(n));
            if (literal != null && !n.equals(nameOf(n))) {
                // name:port of a literal: the port is meant, so it is matched as written, not by address.
                continue;
            }
            if (literal != null) {
                addresses.add(literal);
            }
        }
        for (String loopback : LOOPBACK_NAMES) {
            InetAddress a = literal(loopback);
            if (a != null) {
                addresses.add(a);
            }
        }
        return new KnownHosts(Set.copyOf(entries), Set.copyOf(addresses), false);
    }

    /**
     * What a server bound to {@code bindHost} is known by: the loopback names, the bind address
     * itself, {@code names} (its public URL's host, configured names) and, for a wildcard bind
     * ({@code 0.0.0.0}, {@code ::}), the IP literals of this machine's interfaces, since a caller
     * on the network dials one of those when it dials no name.
     */
    public static KnownHosts forBind(String bindHost, Collection<String> names) {
        List<String> all = new ArrayList<>(names);
        String bind = bindHost.strip();
        InetAddress bound = literal(bind);
        if (bound != null && bound.isAnyLocalAddress()) {
            for (InetAddress a : interfaceAddresses()) {
                all.add(bracketed(a.getHostAddress()));
            }
        } else if (!bind.isEmpty()) {
            all.add(bracketed(bind));
        }
        return of(all);
    }

    /** Whether the check is off ({@code *}). */
    public boolean anyHost() {
        return any;
    }

    /**
     * Whether a Host header value ({@code name}, {@code name:port}, {@code [v6]:port}) names this
     * listener. Null or blank is not known: PROTOCOL (RFC 9112 §3.2) HTTP/1.1 requires Host, so
     * without one nothing can be checked; a caller that accepts HTTP/1.0 without Host decides so itself.
     */
    public boolean allows(String hostHeader) {
        if (any) {
            return true;
        }
        if (hostHeader == null || hostHeader.isBlank()) {
            return false;
        }
        String host = hostHeader.strip().toLowerCase(Locale.ROOT);
        String name = nameOf(host);
        if (entries.contains(name) || entries.contains(host)) {
            return true;
        }
        InetAddress literal = literal(name);
        return literal != null && addresses.contains(literal);
    }

    /** The name of a Host value without its port: {@code [::1]} of {@code [::1]:80}, {@code a} of {@code a:80}. */
    public static String nameOf(String host) {
        if (host.startsWith("[")) {
            int close = host.indexOf(']');
            return close < 0 ? host : host.substring(0, close + 1);
        }
        int colon = host.indexOf(':');
        // More than one colon and no brackets: a bare IPv6 literal, which has no port.
        return colon < 0 || host.indexOf(':', colon + 1) >= 0 ? host : host.substring(0, colon);
    }

    /**
     * Splits a comma-separated list (ALLOWED_HOSTS, MCP_ALLOWED_HOSTS), blanks dropped; an entry
     * given as a URL keeps only its authority, since people paste URLs.
     */
    public static List<String> parseList(String list) {
        if (list == null || list.isBlank()) {
            return List.of();
        }
        return Arrays.stream(list.split(",")).map(String::strip).filter(s -> !s.isEmpty())
                .map(KnownHosts::authorityOf).toList();
    }

    /**
     * {@link #parseList} of an allowed-hosts setting, each entry checked to be {@code *}, a host name,
     * an IP literal or either with a port: a typo is a usage error at start, not a name never answered.
     *
     * @param key the setting's name, for the error (ALLOWED_HOSTS, TAP_ALLOWED_HOSTS)
     * @throws IllegalArgumentException naming the key and the entry that is none of these
     */
    public static List<String> parseSetting(String list, String key) {
        List<String> hosts = parseList(list);
        for (String h : hosts) {
            if (!h.equals("*") && !h.matches("[A-Za-z0-9._\\-]+(:[0-9]{1,5})?|\\[[0-9A-Fa-f:.]+\\](:[0-9]{1,5})?")) {
                throw new IllegalArgumentException(key + ": a host name, IP literal or name:port, comma-separated, got " + h);
            }
        }
        return hosts;
    }

    /** Whether a bind on this address reaches only this machine (a name other than localhost counts as wide). */
    public static boolean isLoopback(String bindHost) {
        String h = bindHost.strip();
        if (h.equalsIgnoreCase("localhost")) {
            return true;
        }
        InetAddress a = literal(h);
        return a != null && a.isLoopbackAddress();
    }

    private static String authorityOf(String entry) {
        int scheme = entry.indexOf("://");
        if (scheme < 0) {
            return entry;
        }
        String rest = entry.substring(scheme + 3);
        int slash = rest.indexOf('/');
        return slash < 0 ? rest : rest.substring(0, slash);
    }

    /** The address of an IP literal (bracketed or not), or null for a name: literals only, never a DNS lookup. */
    private static InetAddress literal(String name) {
        String h = name.startsWith("[") && name.endsWith("]") ? name.substring(1, name.length() - 1) : name;
        int zone = h.indexOf('%');
        String bare = zone < 0 ? h : h.substring(0, zone);
        if (bare.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}")) {
            return v4(bare);
        }
        if (bare.indexOf(':') < 0 || !bare.matches("[0-9a-fA-F:.]+")) {
            return null;
        }
        try {
            // With a colon in it, InetAddress.getByName parses an IPv6 literal or fails: it never
            // resolves it (JDK: "invalid IPv6 address literal").
            return InetAddress.getByName(bare);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /**
     * A dotted quad as its address, or null when it is none (an octet past 255, a leading zero).
     * Built from its bytes: InetAddress.getByName looks up a string such as {@code 999.1.1.1} in DNS,
     * so a caller's Host header would have cost a lookup on the request's thread.
     */
    private static InetAddress v4(String quad) {
        String[] octets = quad.split("\\.");
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            int v = Integer.parseInt(octets[i]);
            if (v > 255 || octets[i].length() > 1 && octets[i].charAt(0) == '0') {
                return null;
            }
            bytes[i] = (byte) v;
        }
        try {
            return InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            // Only for a wrong length, which four octets are not.
            return null;
        }
    }

    private static String bracketed(String address) {
        int zone = address.indexOf('%');
        String bare = zone < 0 ? address : address.substring(0, zone);
        return bare.indexOf(':') >= 0 && !bare.startsWith("[") ? "[" + bare + "]" : bare;
    }

    private static List<InetAddress> interfaceAddresses() {
        try {
            return Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                    .flatMap(NetworkInterface::inetAddresses).toList();
        } catch (SocketException e) {
            // No interface list: the configured names and loopback still work; the IP literals do not.
            return List.of();
        }
    }
}
