package legate.tap;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * The request the tap sends the agent for one the client sent it: same method, path, query,
 * end-to-end headers (in their order) and body bytes, on the tap's own connection to the target.
 *
 * @param head the HTTP/1.1 request line and header section, ready to write
 * @param body the body, sent with a Content-Length
 */
record ForwardedRequest(String method, byte[] head, byte[] body) {
    // The tap's connection writes these itself: Host names the target, Content-Length the body it
    // read whole, and Expect was already answered by the tap's own server.
    private static final String[] CONNECTION_OWNED = {"host", "content-length", "expect"};
    // PROTOCOL (RFC 9110 §9.2.2): the methods a client may repeat without changing the outcome.
    private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE");

    /**
     * @throws IllegalArgumentException when the request cannot be written as HTTP/1.1 (a control
     *     character in the path or a header)
     */
    static ForwardedRequest of(URI target, Request request, String pathQuery, byte[] body) {
        String method = request.getMethod();
        HttpFields headers = request.getHeaders();
        StringBuilder head = new StringBuilder(512);
        head.append(method).append(' ').append(checked("path", pathQuery, true)).append(" HTTP/1.1\r\n");
        head.append("Host: ").append(target.getRawAuthority()).append("\r\n");
        HopByHopFields hop = new HopByHopFields(headers.getValuesList(HttpHeader.CONNECTION));
        for (HttpField field : headers) {
            String name = field.getName();
            if (hop.contains(name) || connectionOwned(name)) {
                continue;
            }
            head.append(checked("header name", name, true)).append(": ")
                    .append(checked("header " + name, field.getValue(), false)).append("\r\n");
        }
        // DEFECT: a bodiless GET that gained "Content-Length: 0" on the way reached the agent with a
        // header the client never sent. The length goes out when the client framed a body at all.
        if (body.length > 0 || headers.contains(HttpHeader.CONTENT_LENGTH)
                || headers.contains(HttpHeader.TRANSFER_ENCODING)) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        // No Via or X-Forwarded-* header: the agent must see the request as the client sent it.
        return new ForwardedRequest(method, bytes(head), body);
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

    /** Rejects what would break the message's framing: CR, LF and NUL anywhere, spaces in a token. */
    private static String checked(String what, String s, boolean token) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\r' || c == '\n' || c == 0 || (token && (c <= ' ' || c == 0x7f))) {
                throw new IllegalArgumentException("the " + what + " holds a character HTTP/1.1 cannot carry ("
                        + String.format(Locale.ROOT, "\\x%02x", (int) c) + ")");
            }
        }
        return s;
    }

    /**
     * The head's bytes as they arrived: Jetty reads header bytes as ISO-8859-1, which maps back to
     * the same bytes; a character beyond it came from UTF-8, so then the head goes out as UTF-8.
     */
    private static byte[] bytes(CharSequence head) {
        String s = head.toString();
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0xff) {
                return s.getBytes(StandardCharsets.UTF_8);
            }
        }
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }
}
