package legate.tap.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A tiny HTTP/1.1 upstream on a bare socket whose every byte and every pause a test scripts, so a
 * test can hold a stream between two frames until it has seen what it waits for.
 */
final class ScriptedUpstream implements AutoCloseable {
    /** Answers one request; throwing ends the connection. */
    @FunctionalInterface
    interface Script {
        void answer(String requestHead, OutputStream out) throws IOException, InterruptedException;
    }

    private final ServerSocket server;
    private final Script script;
    private final List<Socket> sockets = new ArrayList<>();
    private final List<String> requests = new ArrayList<>();

    ScriptedUpstream(Script script) throws IOException {
        this.script = script;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("scripted-upstream").start(this::acceptLoop);
    }

    int port() {
        return server.getLocalPort();
    }

    /** Every request received so far, head and body as ISO-8859-1 text (byte for byte), in arrival order. */
    List<String> requests() {
        synchronized (requests) {
            return List.copyOf(requests);
        }
    }

    /** How many connections the upstream has accepted so far. */
    int connections() {
        synchronized (sockets) {
            return sockets.size();
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                synchronized (sockets) {
                    sockets.add(s);
                }
                Thread.ofVirtual().start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            String head;
            while ((head = readHead(in)) != null) {
                byte[] body = in.readNBytes(contentLength(head));
                synchronized (requests) {
                    requests.add(head + new String(body, StandardCharsets.ISO_8859_1));
                }
                script.answer(head, out);
            }
        } catch (IOException | InterruptedException e) {
            // the script ended this connection
        }
    }

    /** Starts a chunked {@code text/event-stream} response. */
    static void streamHead(OutputStream out) throws IOException {
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n");
    }

    /** One chunk, flushed: a frame leaves the upstream now. */
    static void chunk(OutputStream out, String text) throws IOException {
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        write(out, Integer.toHexString(b.length) + "\r\n" + text + "\r\n");
    }

    static void lastChunk(OutputStream out) throws IOException {
        write(out, "0\r\n\r\n");
    }

    /** The script of an agent that answers every request with {@code {"ok":true}}. */
    static void okJson(String requestHead, OutputStream out) throws IOException {
        json(out, "{\"ok\":true}");
    }

    /** A whole JSON response with a Content-Length. */
    static void json(OutputStream out, String json) throws IOException {
        byte[] b = json.getBytes(StandardCharsets.UTF_8);
        write(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + b.length + "\r\n\r\n" + json);
    }

    private static void write(OutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) >= 0) {
            head.write(b);
            byte[] h = head.toByteArray();
            int n = h.length;
            if (n >= 4 && h[n - 4] == '\r' && h[n - 3] == '\n' && h[n - 2] == '\r' && h[n - 1] == '\n') {
                return head.toString(StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    private static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return 0;
    }

    @Override
    public void close() throws IOException {
        server.close();
        synchronized (sockets) {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }
}
