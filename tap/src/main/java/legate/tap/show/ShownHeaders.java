package legate.tap.show;

import java.util.List;
import legate.tap.show.ExchangeEvent.Header;

/**
 * The headers a person reading A2A traffic needs to see: the service parameters (A2A-Version,
 * A2A-Extensions), the content type, a content encoding, and which credentials were sent. Every
 * other header passes through the tap unshown. The proxy picks them out as it reads a head, so an
 * {@link ExchangeEvent} carries only these, and a credential only masked: what the console prints
 * and the JSON Lines log keeps never holds one in full.
 *
 * <p>Credentials are Authorization and Proxy-Authorization (scheme and the last four characters),
 * the API key header (A2A_API_KEY_HEADER, X-API-Key unless configured), and Cookie and Set-Cookie
 * (each cookie's name, its value masked).
 */
public final class ShownHeaders {
    /** The API key header when none is configured, as the server's API key scheme reads it. */
    public static final String DEFAULT_API_KEY_HEADER = "X-API-Key";
    private static final String[] SHOWN = {"a2a-version", "a2a-extensions", "content-type", "content-encoding"};

    private final String apiKeyHeader;

    /** @param apiKeyHeader the header an API key travels in; null or blank for {@link #DEFAULT_API_KEY_HEADER} */
    public ShownHeaders(String apiKeyHeader) {
        this.apiKeyHeader = apiKeyHeader == null || apiKeyHeader.isBlank() ? DEFAULT_API_KEY_HEADER : apiKeyHeader.strip();
    }

    /** Adds the header to {@code shown} when it matters; a credential is added masked. */
    public void collect(String name, String value, List<Header> shown) {
        if (name.equalsIgnoreCase("authorization") || name.equalsIgnoreCase("proxy-authorization")) {
            shown.add(new Header(name, MaskedCredential.schemeAndSecret(value)));
            return;
        }
        if (name.equalsIgnoreCase(apiKeyHeader)) {
            shown.add(new Header(name, MaskedCredential.secret(value.strip())));
            return;
        }
        if (name.equalsIgnoreCase("cookie") || name.equalsIgnoreCase("set-cookie")) {
            shown.add(new Header(name, MaskedCredential.cookies(name.equalsIgnoreCase("set-cookie")
                    ? value.split(";", 2)[0] : value)));
            return;
        }
        // Compared in place, not lower-cased: this runs for every header of every exchange.
        for (String s : SHOWN) {
            if (s.equalsIgnoreCase(name)) {
                shown.add(new Header(name, value));
                return;
            }
        }
    }
}
