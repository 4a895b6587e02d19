package legate.tap.show;

/**
 * How the tap shows a credential it forwards: enough to tell which one was sent, never enough to
 * use it. One rule for the console, the JSON Lines log and the web page, so a screenshot, a pasted
 * log or an exported HAR file never carries a usable token.
 *
 * <ul>
 *   <li>{@code Authorization}, {@code Proxy-Authorization}: the scheme and the secret's last four
 *       characters, {@code Bearer …wxyz}; a value with no scheme (one word) is masked whole.</li>
 *   <li>The API key header (A2A_API_KEY_HEADER, and {@value #DEFAULT_API_KEY_HEADER}
 *       whatever is configured): {@code …wxyz}.</li>
 *   <li>{@code Cookie}: each cookie keeps its name, {@code session=…wxyz; theme=…};
 *       {@code Set-Cookie}: the cookie's name and masked value, its attributes dropped.</li>
 * </ul>
 *
 * A secret shorter than {@value #MIN_SHOWN_TAIL_LENGTH} characters shows no tail at all: its last
 * four would be most of it.
 */
public final class CredentialMask {
    /** The API key header when none is configured, as the server's API key scheme reads it. */
    public static final String DEFAULT_API_KEY_HEADER = "X-API-Key";
    /** The mask for the default API key header. */
    public static final CredentialMask DEFAULT = new CredentialMask(null);
    /** Below this length a secret is shown as {@code …} alone. */
    static final int MIN_SHOWN_TAIL_LENGTH = 12;
    private static final String ELLIPSIS = "…";
    private static final String TOKEN = "[A-Za-z0-9!#$%&'*+.^_`|~-]+";

    private final String apiKeyHeader;

    /** @param apiKeyHeader the header an API key travels in; null or blank for {@link #DEFAULT_API_KEY_HEADER} */
    public CredentialMask(String apiKeyHeader) {
        this.apiKeyHeader = apiKeyHeader == null || apiKeyHeader.isBlank() ? DEFAULT_API_KEY_HEADER : apiKeyHeader.strip();
    }

    /** The header an API key travels in. */
    public String apiKeyHeader() {
        return apiKeyHeader;
    }

    /** Whether the header carries a credential the tap must not show. */
    public boolean isCredential(String name) {
        // Compared in place, not lower-cased: the proxy asks this of every header of every exchange.
        return withScheme(name) || apiKey(name) || name.equalsIgnoreCase("cookie") || name.equalsIgnoreCase("set-cookie");
    }

    /** The value as shown: masked when the header carries a credential, as it came otherwise. */
    public String shown(String name, String value) {
        if (withScheme(name)) {
            String v = value.strip();
            int space = v.indexOf(' ');
            return space > 0 && v.substring(0, space).matches(TOKEN)
                    ? v.substring(0, space) + " " + tail(v.substring(space + 1).strip())
                    : tail(v);
        }
        if (apiKey(name)) {
            return tail(value.strip());
        }
        if (name.equalsIgnoreCase("cookie")) {
            return cookies(value);
        }
        if (name.equalsIgnoreCase("set-cookie")) {
            // The attributes (Path, HttpOnly, ...) are no secret, but only the cookie itself matters here.
            return cookies(value.split(";", 2)[0]);
        }
        return value;
    }

    /** A configured header adds to X-API-Key, it does not unmask it: a client may still send one there. */
    private boolean apiKey(String name) {
        return name.equalsIgnoreCase(apiKeyHeader) || name.equalsIgnoreCase(DEFAULT_API_KEY_HEADER);
    }

    private static boolean withScheme(String name) {
        return name.equalsIgnoreCase("authorization") || name.equalsIgnoreCase("proxy-authorization");
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
        if (secret.startsWith(ELLIPSIS)) {
            // Masked already (a replayed session): masking it again would lose the tail it shows.
            return secret;
        }
        return secret.length() < MIN_SHOWN_TAIL_LENGTH ? ELLIPSIS : ELLIPSIS + secret.substring(secret.length() - 4);
    }
}
