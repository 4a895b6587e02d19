package legate.tap.show;

import java.util.List;
import legate.tap.show.ExchangeEvent.Header;

/**
 * Which headers an {@link ExchangeEvent} carries, picked out by the proxy as it reads a head.
 *
 * <p>{@link #A2A} (the console's default) keeps what a person reading A2A traffic needs: the
 * service parameters (A2A-Version, A2A-Extensions), the content type, a content encoding, a gRPC
 * call's status ({@link GrpcStatus}), and the credential headers, masked ({@link CredentialMask}). {@link #ALL} keeps every end-to-end header,
 * credentials masked the same way, for the web page's raw view; it costs a few more objects per
 * exchange, so the tap pays it only when the page is on. Either way a credential is only ever
 * carried masked: what the console prints, the JSON Lines log keeps and the page shows never holds
 * one in full.
 */
public final class ShownHeaders {
    /** The headers that matter to A2A, credentials masked (the API key in X-API-Key). */
    public static final ShownHeaders A2A = new ShownHeaders(false, CredentialMask.DEFAULT);
    /** Every header, credentials masked (the API key in X-API-Key). */
    public static final ShownHeaders ALL = new ShownHeaders(true, CredentialMask.DEFAULT);

    // A gRPC call's status travels in its trailers (A2A §10.6): the code, the message, the ErrorInfo.
    private static final String[] SHOWN = {"a2a-version", "a2a-extensions", "content-type", "content-encoding",
            GrpcStatus.STATUS, GrpcStatus.MESSAGE, GrpcStatus.DETAILS};

    private final boolean all;
    private final CredentialMask mask;

    private ShownHeaders(boolean all, CredentialMask mask) {
        this.all = all;
        this.mask = mask;
    }

    /** The same selection, masking the API key in {@code apiKeyHeader} (null or blank: X-API-Key). */
    public ShownHeaders withApiKeyHeader(String apiKeyHeader) {
        return new ShownHeaders(all, new CredentialMask(apiKeyHeader));
    }

    /** Adds the header to {@code shown} when this selection keeps it; credentials only masked. */
    public void collect(String name, String value, List<Header> shown) {
        if (mask.isCredential(name)) {
            shown.add(new Header(name, mask.shown(name, value)));
            return;
        }
        if (all || isShown(name)) {
            shown.add(new Header(name, value));
        }
    }

    /** Whether this selection keeps the header; with {@link #A2A}'s, what the console shows of an event carrying all. */
    public boolean keeps(String name) {
        return all || isShown(name) || mask.isCredential(name);
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
}
