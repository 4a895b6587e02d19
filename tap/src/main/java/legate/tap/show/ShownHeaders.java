package legate.tap.show;

import java.util.List;
import legate.tap.show.ExchangeEvent.Header;

/**
 * The headers a person reading A2A traffic needs to see: the service parameters (A2A-Version,
 * A2A-Extensions), the content type, a content encoding, and whether credentials were sent.
 * Every other header passes through the tap unshown. The proxy picks them out as it reads a head,
 * so an {@link ExchangeEvent} carries only these.
 */
public final class ShownHeaders {
    private static final String[] SHOWN = {"a2a-version", "a2a-extensions", "content-type", "content-encoding"};

    private ShownHeaders() {
    }

    /** Adds the header to {@code shown} when it matters; credentials are never copied, only noted. */
    public static void collect(String name, String value, List<Header> shown) {
        if (name.equalsIgnoreCase("authorization")) {
            shown.add(new Header(name, "(set, not shown)"));
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
