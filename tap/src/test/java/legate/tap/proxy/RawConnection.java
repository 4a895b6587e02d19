package legate.tap.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A client connection on a bare loopback socket that writes exactly the bytes a test gives it and
 * reads responses back with its own small HTTP/1.1 reader (status line, headers, a body framed by
 * Content-Length or chunked coding, or ended by the connection's end), so a test can send what no
 * HTTP client library would send.
 */
final class RawConnection implements AutoCloseable {
    /** One response as it arrived; header names lower-cased, bodies as ISO-8859-1 (byte for byte). */
    record RawResponse(int status, List<String[]> headers, String body) {
        String header(String name) {
            for (String[] h : headers) {
                if (h[0].equals(name)) {
                    return h[1];
                }
            }
            return null;
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawConnection(int port, Duration readTimeout) throws IOException {
        socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(Math.toIntExact(readTimeout.toMillis()));
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    RawConnection send(String bytes) throws IOException {
        return send(bytes.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawConnection send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Reads one response; a HEAD's answer has no body whatever its headers say. */
    RawResponse read(boolean headRequest) throws IOException {
        String status = line();
        if (status == null) {
            throw new IOException("the connection ended before a response");
        }
        List<String[]> headers = new ArrayList<>();
        String field;
        while (!(field = line()).isEmpty()) {
            int colon = field.indexOf(':');
            headers.add(new String[] {field.substring(0, colon).toLowerCase(Locale.ROOT), field.substring(colon + 1).strip()});
        }
        int code = Integer.parseInt(status.split(" ", 3)[1]);
        RawResponse head = new RawResponse(code, headers, "");
        String body;
        if (headRequest || code == 204 || code == 304 || code / 100 == 1) {
            body = "";
        } else if ("chunked".equals(head.header("transfer-encoding"))) {
            body = chunked();
        } else if (head.header("content-length") != null) {
            body = new String(in.readNBytes(Integer.parseInt(head.header("content-length"))), StandardCharsets.ISO_8859_1);
        } else {
            body = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
        return new RawResponse(code, headers, body);
    }

    RawResponse read() throws IOException {
        return read(false);
    }

    /** Whether the tap closed the connection: the next read finds its end (or a reset) within the timeout. */
    boolean closedByPeer() throws IOException {
        try {
            return in.read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private String chunked() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            int size = Integer.parseInt(line().split(";")[0].strip(), 16);
            if (size == 0) {
                while (!line().isEmpty()) {
                    // trailers
                }
                return body.toString(StandardCharsets.ISO_8859_1);
            }
            body.write(in.readNBytes(size));
            if (!line().isEmpty()) {
                throw new IOException("a chunk longer than its size");
            }
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\n') {
                byte[] s = line.toByteArray();
                int n = s.length > 0 && s[s.length - 1] == '\r' ? s.length - 1 : s.length;
                return new String(s, 0, n, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
        if (line.size() == 0) {
            return null;
        }
        throw new IOException("the connection ended in the middle of a line");
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
