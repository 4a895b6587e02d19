package legate.a2a.server.push;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PUSH_ALLOW_HOSTS: the webhook hosts exempt from the address rules of {@link WebhookGuard}, and the
 * only ones a webhook may reach over plain {@code http}. A comma-separated list of host names or
 * addresses, each optionally with {@code :port} (an IPv6 address in brackets: {@code [::1]:8080});
 * without a port, every port of the host is allowed. Names are matched as written, case aside:
 * allowing {@code hooks.internal} allows no other name that resolves to the same address.
 */
public final class AllowedHosts {
    /** No host is exempt: https to public addresses only. */
    public static final AllowedHosts NONE = new AllowedHosts(List.of());

    /** One entry: a host (lower case, IPv6 without brackets) and a port, or -1 for any port. */
    private record Entry(String host, int port) {
    }

    private final List<Entry> entries;

    private AllowedHosts(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    /**
     * Reads the list; null or blank is {@link #NONE}.
     *
     * @throws IllegalArgumentException naming the entry that is not a host with an optional port
     */
    public static AllowedHosts parse(String list) {
        if (list == null || list.isBlank()) {
            return NONE;
        }
        List<Entry> out = new ArrayList<>();
        for (String raw : list.split(",")) {
            String item = raw.strip();
            if (item.isEmpty()) {
                continue;
            }
            out.add(entry(item));
        }
        return new AllowedHosts(out);
    }

    private static Entry entry(String item) {
        String host = item;
        int port = -1;
        if (item.startsWith("[")) {
            int close = item.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("\"" + item + "\" opens a bracket it does not close");
            }
            host = item.substring(1, close);
            String rest = item.substring(close + 1);
            if (!rest.isEmpty()) {
                port = port(item, rest);
            }
        } else if (item.indexOf(':') >= 0 && item.indexOf(':') == item.lastIndexOf(':')) {
            host = item.substring(0, item.indexOf(':'));
            port = port(item, item.substring(item.indexOf(':')));
        }
        if (host.isEmpty() || host.contains("/") || host.contains("@") || host.contains(" ")) {
            throw new IllegalArgumentException("\"" + item + "\" is not a host name or address with an optional :port");
        }
        return new Entry(host.toLowerCase(Locale.ROOT), port);
    }

    private static int port(String item, String colonPort) {
        String digits = colonPort.startsWith(":") ? colonPort.substring(1) : "";
        if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')
                || Integer.parseInt(digits) > 65535) {
            throw new IllegalArgumentException("\"" + item + "\" has a port that is not a number from 0 to 65535");
        }
        return Integer.parseInt(digits);
    }

    /** Whether {@code host} (as the URL writes it, IPv6 brackets removed) on {@code port} is listed. */
    public boolean allows(String host, int port) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        for (Entry e : entries) {
            if (e.host().equals(h) && (e.port() < 0 || e.port() == port)) {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }
}
