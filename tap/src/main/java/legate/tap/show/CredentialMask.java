package legate.tap.show;

import java.util.Locale;
import java.util.Set;

/**
 * How the tap shows a credential it forwards: the scheme and the last 4 characters, never the
 * secret. One rule for the console, the log and the web page, so a screenshot, a pasted log or an
 * exported HAR file never carries a usable token.
 *
 * <ul>
 *   <li>{@code Authorization}, {@code Proxy-Authorization}: {@code Bearer …wxyz}; a value with no
 *       scheme (one word) is masked whole.</li>
 *   <li>{@code X-API-Key}: {@code …wxyz}.</li>
 *   <li>{@code Cookie}: each cookie keeps its name, {@code session=…wxyz; theme=…}.</li>
 * </ul>
 *
 * A secret shorter than {@value #MIN_SHOWN_TAIL_LENGTH} characters shows no tail at all: its last
 * four would be most of it.
 */
public final class CredentialMask {
    /** Below this length a secret is shown as {@code …} alone. */
    static final int MIN_SHOWN_TAIL_LENGTH = 12;
    private static final String ELLIPSIS = "…";
    private static final Set<String> WITH_SCHEME = Set.of("authorization", "proxy-authorization");

    private CredentialMask() {
    }

    /** Whether the header carries a credential the tap must not show. */
    public static boolean isCredential(String name) {
        // Compared in place, not lower-cased: the proxy asks this of every header of every exchange.
        return name.equalsIgnoreCase("authorization") || name.equalsIgnoreCase("proxy-authorization")
                || name.equalsIgnoreCase("x-api-key") || name.equalsIgnoreCase("cookie");
    }

    /** The value as shown: masked when the header carries a credential, as it came otherwise. */
    public static String shown(String name, String value) {
        String n = name.toLowerCase(Locale.ROOT);
        if (WITH_SCHEME.contains(n)) {
            String v = value.strip();
            int space = v.indexOf(' ');
            return space < 0 ? tail(v) : v.substring(0, space) + " " + tail(v.substring(space + 1).strip());
        }
        if (n.equals("x-api-key")) {
            return tail(value.strip());
        }
        if (n.equals("cookie")) {
            return cookies(value);
        }
        return value;
    }

    private static String cookies(String value) {
        StringBuilder sb = new StringBuilder();
        for (String pair : value.split(";")) {
            String p = pair.strip();
            if (p.isEmpty()) {
                continue;
            }
            if (!sb.isEmpty()) {
                sb.append("; ");
            }
            int eq = p.indexOf('=');
            sb.append(eq < 0 ? tail(p) : p.substring(0, eq + 1) + tail(p.substring(eq + 1)));
        }
        return sb.toString();
    }

    private static String tail(String secret) {
        return secret.length() < MIN_SHOWN_TAIL_LENGTH ? ELLIPSIS : ELLIPSIS + secret.substring(secret.length() - 4);
    }
}
