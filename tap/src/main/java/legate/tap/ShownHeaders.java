package legate.tap;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import legate.tap.ExchangeEvent.Header;

/**
 * The headers a person reading A2A traffic needs to see: the service parameters (A2A-Version,
 * A2A-Extensions), the content type, a content encoding, and whether credentials were sent.
 * Every other header passes through the tap unshown.
 */
final class ShownHeaders {
    private static final Set<String> SHOWN = Set.of("a2a-version", "a2a-extensions", "content-type", "content-encoding",
            "authorization");

    private ShownHeaders() {
    }

    /** Adds the header to {@code shown} when it matters; credentials are never copied, only noted. */
    static void collect(String name, String value, List<Header> shown) {
        String lower = name.toLowerCase(Locale.ROOT);
        if (lower.equals("authorization")) {
            shown.add(new Header(name, "(set, not shown)"));
        } else if (SHOWN.contains(lower)) {
            shown.add(new Header(name, value));
        }
    }
}
