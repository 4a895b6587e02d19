package legate.tap.http;

import java.util.List;

/**
 * The request line and header section of one request (RFC 9112 §3, §5), as the client sent them.
 *
 * @param target the request-target in origin form (path and query) or {@code *}
 * @param version {@code HTTP/1.1} or {@code HTTP/1.0}
 * @param fields every field line in arrival order
 */
public record RequestHead(String method, String target, String version, List<Field> fields) {
    public boolean isHttp11() {
        return version.equals("HTTP/1.1");
    }

    /** The first value of the named field, or null. */
    public String first(String name) {
        return Fields.first(fields, name);
    }

    /**
     * Whether the client's connection ends after this exchange. PROTOCOL (RFC 9112 §9.3): an
     * HTTP/1.1 connection persists unless "close" is sent; the tap keeps no HTTP/1.0 connection
     * alive, so it never has to answer a keep-alive offer.
     */
    public boolean closesConnection() {
        return !isHttp11() || Fields.hasToken(fields, "Connection", "close");
    }

    /** Whether the client waits for a 100 (Continue) before it sends the body (RFC 9110 §10.1.1). */
    public boolean expectsContinue() {
        return isHttp11() && Fields.hasToken(fields, "Expect", "100-continue");
    }
}
