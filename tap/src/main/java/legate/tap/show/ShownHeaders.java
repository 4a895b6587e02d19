package legate.tap.show;

import java.util.List;
import legate.tap.show.ExchangeEvent.Header;

/**
 * Which headers an {@link ExchangeEvent} carries, picked out by the proxy as it reads a head.
 *
 * <p>{@link #A2A} (the console's default) keeps what a person reading A2A traffic needs: the
 * service parameters (A2A-Version, A2A-Extensions), the content type, a content encoding, and the
 * credential headers, masked ({@link CredentialMask}). {@link #ALL} keeps every end-to-end header,
 * credentials masked the same way, for the web page's raw view; it costs a few more objects per
 * exchange, so the tap pays it only when the page is on.
 */
public final class ShownHeaders {
    /** The headers that matter to A2A, credentials masked. */
    public static final ShownHeaders A2A = new ShownHeaders(false);
    /** Every header, credentials masked. */
    public static final ShownHeaders ALL = new ShownHeaders(true);

    private static final String[] SHOWN = {"a2a-version", "a2a-extensions", "content-type", "content-encoding"};

    private final boolean all;

    private ShownHeaders(boolean all) {
        this.all = all;
    }

    /** Adds the header to {@code shown} when this selection keeps it; credentials only masked. */
    public void collect(String name, String value, List<Header> shown) {
        if (CredentialMask.isCredential(name)) {
            shown.add(new Header(name, CredentialMask.shown(name, value)));
            return;
        }
        if (all || isShown(name)) {
            shown.add(new Header(name, value));
        }
    }

    private static boolean isShown(String name) {
        // Compared in place, not lower-cased: this runs for every header of every exchange.
        for (String s : SHOWN) {
            if (s.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the console shows this header: the A2A service parameters, content type and encoding, credentials. */
    public static boolean matters(String name) {
        return isShown(name) || CredentialMask.isCredential(name);
    }
}
