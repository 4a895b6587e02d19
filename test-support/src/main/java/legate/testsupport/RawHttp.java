package legate.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 request written byte for byte on a fresh loopback connection, and the answer read
 * until the server closes it ({@code Connection: close}). What the JDK HttpClient will not send is
 * the point: a forged {@code Host} (it refuses to set Host), an {@code Origin} of a page elsewhere.
 *
 * <pre>{@code
 * RawHttp.Answer a = RawHttp.send(port, "GET /v1/tasks HTTP/1.1\r\nHost: rebind.example\r\n\r\n");
 * assertThat(a.status()).isEqualTo(421);
 * }</pre>
 */
public final class RawHttp {
    private RawHttp() {
    }

    /** An answer: its status code, header section (as sent, lower-cased names not guaranteed) and body. */
    public record Answer(int status, String head, String body) {
        /** The first value of a header, matched without case, or null. */
        public String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).strip();
                }
            }
            return null;
        }
    }

    /** GET {@code path} with the given Host (and Origin, when not null), and A2A-Version 1.0. */
    public static Answer get(int port, String path, String host, String origin) throws IOException {
        return send(port, "GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\n"
                + (origin == null ? "" : "Origin: " + origin + "\r\n") + "A2A-Version: 1.0\r\n\r\n");
    }

    /** POST a JSON body to {@code path} with the given Host (and Origin, when not null), and A2A-Version 1.0. */
    public static Answer postJson(int port, String path, String host, String origin, String json) throws IOException {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        return send(port, "POST " + path + " HTTP/1.1\r\nHost: " + host + "\r\n"
                + (origin == null ? "" : "Origin: " + origin + "\r\n")
                + "Content-Type: application/json\r\nA2A-Version: 1.0\r\nContent-Length: " + body.length + "\r\n\r\n"
                + json);
    }

    /**
     * Writes {@code request} (a {@code Connection: close} header is added to its head) and reads the
     * answer to the end; 10 s at most without a byte.
     */
    public static Answer send(int port, String request) throws IOException {
        int end = request.indexOf("\r\n\r\n");
        String withClose = request.substring(0, end) + "\r\nConnection: close" + request.substring(end);
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(withClose.getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            String text = all.toString(StandardCharsets.UTF_8);
            int headEnd = text.indexOf("\r\n\r\n");
            if (!text.startsWith("HTTP/") || headEnd < 0) {
                throw new IOException("not an HTTP answer: " + text);
            }
            String head = text.substring(0, headEnd);
            int status = Integer.parseInt(head.substring(head.indexOf(' ') + 1, head.indexOf(' ') + 4));
            String body = text.substring(headEnd + 4);
            if ("chunked".equals(headerOf(head, "Transfer-Encoding"))) {
                body = unchunk(body);
            }
            return new Answer(status, head, body);
        }
    }

    private static String headerOf(String head, String name) {
        String v = new Answer(0, head, "").header(name);
        return v == null ? null : v.toLowerCase(Locale.ROOT);
    }

    private static String unchunk(String chunked) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < chunked.length()) {
            int lineEnd = chunked.indexOf("\r\n", i);
            if (lineEnd < 0) {
                break;
            }
            String size = chunked.substring(i, lineEnd).split(";")[0].strip();
            int n = size.isEmpty() ? 0 : Integer.parseInt(size, 16);
            if (n == 0) {
                break;
            }
            // Sizes count bytes; the bodies here are ASCII JSON and text, so chars are bytes.
            out.append(chunked, lineEnd + 2, Math.min(chunked.length(), lineEnd + 2 + n));
            i = lineEnd + 2 + n + 2;
        }
        return out.toString();
    }
}
