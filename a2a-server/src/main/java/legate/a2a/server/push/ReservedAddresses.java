package legate.a2a.server.push;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

/**
 * The addresses a webhook must not reach unless its host is in PUSH_ALLOW_HOSTS: the ones that lead
 * into the agent's own machine or network rather than to the caller's service (server-side request
 * forgery: a caller registering {@code http://169.254.169.254/} to read a cloud metadata service, or
 * an internal admin port). PROTOCOL (A2A §13.2): agents should refuse private, loopback and
 * link-local targets; multicast, unspecified and reserved ranges are refused for the same reason.
 *
 * <p>An IPv6 address that carries an IPv4 one (IPv4-mapped {@code ::ffff:127.0.0.1}, the old
 * IPv4-compatible {@code ::127.0.0.1}, NAT64 {@code 64:ff9b::a00:1}, 6to4 {@code 2002:7f00:1::}) is
 * judged by the IPv4 address it leads to, which is where a dual-stack socket or a translator sends it.
 */
final class ReservedAddresses {
    private ReservedAddresses() {
    }

    /** What kind of non-public address {@code a} is ("loopback", "private", ...), or null for a public one. */
    static String kind(InetAddress a) {
        return switch (a) {
            case Inet4Address v4 -> kind4(v4.getAddress());
            case Inet6Address v6 -> kind6(v6.getAddress());
            default -> "unknown";
        };
    }

    private static String kind4(byte[] b) {
        int a0 = b[0] & 0xff;
        int a1 = b[1] & 0xff;
        if (a0 == 0) {
            return "unspecified";
        }
        if (a0 == 127) {
            return "loopback";
        }
        if (a0 == 169 && a1 == 254) {
            return "link-local";
        }
        if (a0 == 10 || (a0 == 172 && a1 >= 16 && a1 <= 31) || (a0 == 192 && a1 == 168)
                || (a0 == 100 && a1 >= 64 && a1 <= 127) || (a0 == 198 && (a1 == 18 || a1 == 19))) {
            // RFC 1918, the shared address space of carrier NAT (RFC 6598), benchmarking (RFC 2544).
            return "private";
        }
        if (a0 >= 224 && a0 <= 239) {
            return "multicast";
        }
        if (a0 >= 240 || (a0 == 192 && a1 == 0 && (b[2] & 0xff) == 0)) {
            // Reserved (RFC 1112 §4, the broadcast address among them) and IETF protocol assignments.
            return "reserved";
        }
        return null;
    }

    private static String kind6(byte[] b) {
        if (allZero(b, 0, 10) && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
            return kind4(slice(b, 12));
        }
        if (allZero(b, 0, 12)) {
            if (allZero(b, 12, 15) && b[15] == 0) {
                return "unspecified";
            }
            if (allZero(b, 12, 15) && b[15] == 1) {
                return "loopback";
            }
            return kind4(slice(b, 12));
        }
        if ((b[0] & 0xff) == 0x00 && (b[1] & 0xff) == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b
                && allZero(b, 4, 12)) {
            return kind4(slice(b, 12));
        }
        if ((b[0] & 0xff) == 0x20 && (b[1] & 0xff) == 0x02) {
            return kind4(slice(b, 2));
        }
        int top = b[0] & 0xff;
        if (top == 0xff) {
            return "multicast";
        }
        if (top == 0xfe && (b[1] & 0xc0) == 0x80) {
            return "link-local";
        }
        if ((top == 0xfe && (b[1] & 0xc0) == 0xc0) || (top & 0xfe) == 0xfc) {
            // Deprecated site-local (RFC 3879) and unique local addresses (RFC 4193).
            return "private";
        }
        if (top == 0x20 && (b[1] & 0xff) == 0x01 && (b[2] & 0xff) == 0x0d && (b[3] & 0xff) == 0xb8) {
            return "reserved";
        }
        // Only 2000::/3 is global unicast (IANA's IPv6 address space); the rest, fe00::/9 and 100::/64
        // among them, is reserved by the IETF: no webhook lives there (fe00::1 passed before, seen in a
        // WebhookGuardFuzzTest finding). Inside it, 2001::/23 holds IETF protocol assignments (as
        // 192.0.0.0/24 does for IPv4) and 3fff::/20 is for documentation (RFC 9637).
        if ((top & 0xe0) != 0x20
                || (top == 0x20 && (b[1] & 0xff) == 0x01 && (b[2] & 0xfe) == 0x00)
                || (top == 0x3f && (b[1] & 0xff) == 0xff && (b[2] & 0xf0) == 0x00)) {
            return "reserved";
        }
        return null;
    }

    private static boolean allZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static byte[] slice(byte[] b, int from) {
        return new byte[] {b[from], b[from + 1], b[from + 2], b[from + 3]};
    }
}
