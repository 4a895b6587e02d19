package legate.tap.proxy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import legate.tap.http.Field;
import legate.tap.http.Framing;
import legate.tap.http.HeadBytes;
import legate.tap.http.HopByHopFields;
import legate.tap.http.RequestHead;

/**
 * The request the tap sends the agent for one the client sent it: same method, target, end-to-end
 * headers (in their order, values byte for byte) and body bytes, on the tap's own connection.
 *
 * @param head the HTTP/1.1 request line and header section, ready to write
 * @param body the body, sent with a Content-Length
 */
record ForwardedRequest(String method, byte[] head, byte[] body) {
    // The tap's connection writes these itself: Host names the target, Content-Length the body it
    // read whole, and Expect was already answered by the tap.
    private static final String[] CONNECTION_OWNED = {"host", "content-length", "expect"};
    // PROTOCOL (RFC 9110 §9.2.2): the methods a client may repeat without changing the outcome.
    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE");
    private static final byte[] VERSION = " HTTP/1.1\r\nHost: ".getBytes(StandardCharsets.US_ASCII);

    /**
     * @param framing the client's framing of the body: the length goes out when the client framed one at all
     */
    static ForwardedRequest of(URI target, RequestHead request, Framing framing, byte[] body) {
        HeadBytes head = new HeadBytes(256 + 64 * request.fields().size());
        head.latin1(request.method()).append(' ').latin1(request.target()).append(VERSION).latin1(target.getRawAuthority()).crlf();
        HopByHopFields hop = new HopByHopFields(request.fields());
        for (Field field : request.fields()) {
            if (hop.contains(field.name()) || connectionOwned(field.name())) {
                continue;
            }
            head.latin1(field.name()).append(':').append(' ').latin1(field.value()).crlf();
        }
        // DEFECT: a bodiless GET that gained "Content-Length: 0" on the way reached the agent with a
        // header the client never sent. The length goes out when the client framed a body at all.
        if (!(framing instanceof Framing.None)) {
            head.latin1("Content-Length: ").latin1(Integer.toString(body.length)).crlf();
        }
        head.crlf();
        // No Via or X-Forwarded-* header: the agent must see the request as the client sent it.
        return new ForwardedRequest(request.method(), head.toByteArray(), body);
    }

    private static boolean connectionOwned(String name) {
        for (String s : CONNECTION_OWNED) {
            if (s.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    boolean idempotent() {
        return IDEMPOTENT.contains(method);
    }

    boolean isHead() {
        return method.equals("HEAD");
    }
}
