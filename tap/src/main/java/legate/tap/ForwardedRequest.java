package legate.tap;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Locale;
import java.util.Set;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;

/**
 * The request the tap sends the agent for one the client sent it: same method, path, query,
 * end-to-end headers and body bytes, on the tap's own connection to the target.
 */
final class ForwardedRequest {
    // PEER (JDK HttpClient): refuses to set these itself (IllegalArgumentException); it writes Host
    // and Content-Length from the URI and the body, and Expect is answered by Jetty on this side.
    private static final Set<String> CLIENT_OWNED = Set.of("host", "content-length", "expect");

    private ForwardedRequest() {
    }

    /**
     * @throws IllegalArgumentException when the request cannot be expressed to the upstream (a
     *     method or header the JDK client refuses, a path that is not a URI)
     */
    static HttpRequest of(URI target, Request request, String pathQuery, byte[] body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(target + pathQuery));
        HttpFields headers = request.getHeaders();
        String method = request.getMethod();
        boolean bodiless = body.length == 0 && !headers.contains(HttpHeader.CONTENT_LENGTH)
                && !headers.contains(HttpHeader.TRANSFER_ENCODING);
        if (bodiless && method.equals("GET")) {
            // DEFECT: method("GET", noBody()) made the JDK client send "Content-Length: 0" on the
            // card request, a header the client never sent; GET() sends none.
            b.GET();
        } else if (bodiless && method.equals("DELETE")) {
            b.DELETE();
        } else {
            b.method(method, body.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
        }
        HopByHopFields hop = new HopByHopFields(headers.getValuesList(HttpHeader.CONNECTION));
        for (HttpField field : headers) {
            String name = field.getName();
            if (hop.contains(name) || CLIENT_OWNED.contains(name.toLowerCase(Locale.ROOT))) {
                continue;
            }
            b.header(name, field.getValue());
        }
        // No Via or X-Forwarded-* header: the agent must see the request as the client sent it.
        return b.build();
    }
}
