package legate.tap.proxy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads recorded HTTP/1.1 connection bytes back into exchanges (RFC 9112): request and status
 * lines, header fields, and bodies framed by Content-Length or chunked coding, de-chunked. Written
 * for the tests and independent of the tap, so it cannot share the tap's mistakes.
 */
final class Http1Transcript {
    /**
     * One exchange as the peers saw it, with bytes as ISO-8859-1 strings so equality is byte equality.
     * Headers are lower-cased name to values, without those that belong to one connection.
     */
    record Exchange(String method, String target, Map<String, List<String>> requestHeaders, String requestBody,
                    int status, Map<String, List<String>> responseHeaders, String responseBody) {
        boolean isEventStream() {
            return responseHeaders.getOrDefault("content-type", List.of()).stream()
                    .anyMatch(v -> v.startsWith("text/event-stream"));
        }
    }

    // PROTOCOL (RFC 9110 §7.6.1): these describe one connection and may differ on each side of a
    // proxy. Host names the server dialed, which is the tap on one side and the agent on the other.
    private static final Set<String> PER_CONNECTION = Set.of("connection", "keep-alive", "transfer-encoding", "te",
            "trailer", "upgrade", "host");

    private final byte[] bytes;
    private int pos;

    private Http1Transcript(byte[] bytes) {
        this.bytes = bytes;
    }

    /** Every complete exchange of every connection. */
    static List<Exchange> exchanges(List<TcpRecorder.Connection> connections) {
        List<Exchange> out = new ArrayList<>();
        for (TcpRecorder.Connection c : connections) {
            Http1Transcript requests = new Http1Transcript(c.sent());
            Http1Transcript responses = new Http1Transcript(c.received());
            while (true) {
                Message request = requests.message(true, null);
                if (request == null) {
                    break;
                }
                Message response;
                do {
                    response = responses.message(false, request.startLine.split(" ")[0]);
                } while (response != null && response.status() / 100 == 1);
                if (response == null) {
                    break;
                }
                String[] line = request.startLine.split(" ", 3);
                out.add(new Exchange(line[0], line[1], request.headers, request.body, response.status(),
                        response.headers, response.body));
            }
        }
        return out;
    }

    private record Message(String startLine, Map<String, List<String>> headers, String body) {
        int status() {
            return Integer.parseInt(startLine.split(" ", 3)[1]);
        }
    }

    /** The next message, or null when the bytes end before one is complete. */
    private Message message(boolean isRequest, String requestMethod) {
        String startLine = line();
        if (startLine == null) {
            return null;
        }
        Map<String, List<String>> headers = new TreeMap<>();
        String chunked = null;
        long length = -1;
        String field;
        while ((field = line()) != null && !field.isEmpty()) {
            int colon = field.indexOf(':');
            String name = field.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = field.substring(colon + 1).trim();
            if (name.equals("transfer-encoding")) {
                chunked = value;
            }
            if (name.equals("content-length")) {
                length = Long.parseLong(value);
            }
            if (!PER_CONNECTION.contains(name)) {
                headers.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            }
        }
        if (field == null) {
            return null;
        }
        String body;
        if (chunked != null && chunked.toLowerCase(Locale.ROOT).contains("chunked")) {
            body = chunkedBody();
        } else if (length >= 0) {
            body = pos + length <= bytes.length ? take((int) length) : null;
        } else if (isRequest || "HEAD".equals(requestMethod)) {
            body = "";
        } else {
            int status = Integer.parseInt(startLine.split(" ", 3)[1]);
            body = status / 100 == 1 || status == 204 || status == 304 ? "" : take(bytes.length - pos);
        }
        return body == null ? null : new Message(startLine, headers, body);
    }

    private String chunkedBody() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            String size = line();
            if (size == null) {
                return null;
            }
            int semi = size.indexOf(';');
            int n = Integer.parseInt((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
            if (n == 0) {
                String trailer;
                while ((trailer = line()) != null && !trailer.isEmpty()) {
                    // trailers carry nothing these peers use
                }
                return trailer == null ? null : out.toString(StandardCharsets.ISO_8859_1);
            }
            if (pos + n + 2 > bytes.length) {
                return null;
            }
            out.write(bytes, pos, n);
            pos += n + 2;
        }
    }

    private String line() {
        for (int i = pos; i + 1 < bytes.length; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                String s = new String(bytes, pos, i - pos, StandardCharsets.ISO_8859_1);
                pos = i + 2;
                return s;
            }
        }
        return null;
    }

    private String take(int n) {
        String s = new String(bytes, pos, n, StandardCharsets.ISO_8859_1);
        pos += n;
        return s;
    }
}
