package legate.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A loopback HTTP/1.1 peer that answers each connection with bytes a test writes by hand, so a test
 * can send what no well-behaved server would: a stream cut in the middle, an HTML error page, an
 * error event, or no answer at all. Each connection carries one exchange and is then closed.
 */
public final class ScriptedPeer implements AutoCloseable {
    /** PROTOCOL (A2A §8.2): where a client fetches the public Agent Card. */
    private static final String CARD_PATH = ".well-known/agent-card.json";

    /** One request as it arrived. Header names are lower-case. */
    public record Exchange(String method, String path, Map<String, String> headers, String body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Writes the answer to one request; returning closes the connection. */
    @FunctionalInterface
    public interface Script {
        void answer(Exchange request, OutputStream out, ScriptedPeer self) throws IOException, InterruptedException;
    }

    private final ServerSocket server;
    private final Script script;
    private final BlockingQueue<Exchange> requests = new LinkedBlockingQueue<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final CountDownLatch closed = new CountDownLatch(1);

    public ScriptedPeer(Script script) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.script = script;
        Thread.ofVirtual().name("scripted-peer-accept").start(this::acceptLoop);
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort() + "/");
    }

    /** The next request the peer received, waiting at most {@code timeout}. */
    public Exchange nextRequest(Duration timeout) throws InterruptedException {
        Exchange e = requests.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (e == null) {
            throw new AssertionError("the peer received no request within " + timeout);
        }
        return e;
    }

    /** The requests received so far that no test has taken yet, taking them. */
    public List<Exchange> takeReceived() {
        List<Exchange> all = new ArrayList<>();
        requests.drainTo(all);
        return all;
    }

    /** For a script that must never answer: blocks until the peer is closed. */
    public void hangUntilClosed() throws InterruptedException {
        closed.await();
    }

    @Override
    public void close() throws IOException {
        closed.countDown();
        server.close();
        for (Socket s : open) {
            s.close();
        }
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                open.add(socket);
                Thread.ofVirtual().name("scripted-peer-conn").start(() -> serve(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            Exchange request = read(socket.getInputStream());
            requests.add(request);
            OutputStream out = socket.getOutputStream();
            script.answer(request, out, this);
            out.flush();
        } catch (IOException | InterruptedException e) {
            // the client went away or the peer was closed
        } finally {
            open.remove(socket);
        }
    }

    private static Exchange read(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("request ended inside its head");
            }
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        String[] requestLine = lines[0].split(" ");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).strip().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
            }
        }
        int length = Integer.parseInt(headers.getOrDefault("content-length", "0"));
        String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        return new Exchange(requestLine[0], requestLine[1], headers, body);
    }

    // ---------------------------------------------------------------- answers

    /** A complete response with a Content-Length. */
    public static void respond(OutputStream out, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 " + status + " X\r\nContent-Type: " + contentType + "\r\nContent-Length: " + bytes.length
                + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
    }

    /**
     * The head of a chunked SSE response; follow with {@link #chunk} and, for a clean end, {@link #lastChunk}.
     * It says Connection: close, as the peer closes every connection after one exchange, so the
     * client never sends a later request on a connection the peer is closing.
     */
    public static void sseHead(OutputStream out) throws IOException {
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    public static void chunk(OutputStream out, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    public static void lastChunk(OutputStream out) throws IOException {
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** A ProtoJSON card with one JSON-RPC 1.0 interface at {@code url}, declaring the extensions named. */
    public static String cardJson(URI url, String... extensionUris) {
        String extensions = Arrays.stream(extensionUris).map(u -> "{\"uri\":\"" + u + "\"}").collect(Collectors.joining(","));
        return "{\"name\":\"Scripted\",\"description\":\"a scripted peer\",\"version\":\"0\","
                + "\"supportedInterfaces\":[{\"url\":\"" + url + "\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\"}],"
                + "\"capabilities\":{\"streaming\":true,\"extensions\":[" + extensions + "]},\"defaultInputModes\":[\"text/plain\"],"
                + "\"defaultOutputModes\":[\"text/plain\"],\"skills\":[]}";
    }

    public static boolean isCardRequest(Exchange request) {
        return request.method().equals("GET") && request.path().endsWith(CARD_PATH);
    }
}
