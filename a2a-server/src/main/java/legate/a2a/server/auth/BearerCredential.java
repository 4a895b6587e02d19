package legate.a2a.server.auth;

import java.util.Locale;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;

/** The token of an {@code Authorization: Bearer <token>} header (RFC 6750 §2.1), the scheme name in any case. */
final class BearerCredential {
    private static final String PREFIX = "bearer ";

    private BearerCredential() {
    }

    /** The token, or null when the request carries no bearer credential. */
    static String of(HttpFields headers) {
        String value = headers.get(HttpHeader.AUTHORIZATION);
        if (value == null || value.length() <= PREFIX.length()
                || !value.substring(0, PREFIX.length()).toLowerCase(Locale.ROOT).equals(PREFIX)) {
            return null;
        }
        String token = value.substring(PREFIX.length()).trim();
        return token.isEmpty() ? null : token;
    }
}
