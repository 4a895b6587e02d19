import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A round-robin HTTP proxy with no stickiness, for bench/multi-instance: each request goes to the
 * next backend in turn and its answer streams back chunk by chunk. Loopback only.
 *
 * <pre>java bench/RoundRobin.java BACKEND_URL...</pre>
 * prints "listening on http://127.0.0.1:PORT/" once it listens, and runs until killed.
 */
public final class RoundRobin {
    private static final List<String> FORWARDED = List.of("Content-Type", "A2A-Version", "A2A-Extensions",
            "Last-Event-ID", "Authorization");

    private final List<URI> backends = new ArrayList<>();
    private final AtomicInteger next = new AtomicInteger();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: java bench/RoundRobin.java BACKEND_URL...");
            System.exit(2);
        }
        RoundRobin proxy = new RoundRobin();
        for (String a : args) {
            proxy.backends.add(URI.create(a));
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        server.createContext("/", proxy::relay);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        System.out.println("listening on http://127.0.0.1:" + server.getAddress().getPort() + "/");
        System.out.flush();
    }

    private void relay(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        URI backend = backends.get(Math.floorMod(next.getAndIncrement(), backends.size()));
        HttpRequest.Builder out = HttpRequest.newBuilder(backend.resolve(exchange.getRequestURI()))
                .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(body));
        for (String h : FORWARDED) {
            String v = exchange.getRequestHeaders().getFirst(h);
            if (v != null) {
                out.header(h, v);
            }
        }
        HttpResponse<InputStream> answer;
        try {
            answer = client.send(out.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException | InterruptedException e) {
            exchange.sendResponseHeaders(502, -1);
            exchange.close();
            return;
        }
        answer.headers().firstValue("Content-Type").ifPresent(v -> exchange.getResponseHeaders().set("Content-Type", v));
        exchange.sendResponseHeaders(answer.statusCode(), 0);
        try (InputStream in = answer.body(); OutputStream relayed = exchange.getResponseBody()) {
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) >= 0) {
                relayed.write(buf, 0, n);
                relayed.flush();
            }
        }
    }
}
