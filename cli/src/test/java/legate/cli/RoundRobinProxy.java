package legate.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A load balancer as plain as they come, for tests: each request goes to the next backend in turn,
 * with no stickiness of any kind, and its answer streams back chunk by chunk. A backend that
 * refuses the connection is skipped, as a balancer's health check would.
 */
final class RoundRobinProxy implements AutoCloseable {
    private static final List<String> FORWARDED = List.of("Content-Type", "A2A-Version", "A2A-Extensions",
            "Last-Event-ID", "Authorization");

    private final HttpServer server;
    private final ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final List<URI> backends = new CopyOnWriteArrayList<>();
    private final AtomicInteger next = new AtomicInteger();
    private volatile int lastBackend = -1;

    RoundRobinProxy() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::relay);
        server.setExecutor(threads);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    void add(URI backend) {
        backends.add(backend);
    }

    /** The index (in the order added) of the backend that took the latest request. */
    int lastBackend() {
        return lastBackend;
    }

    private void relay(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        for (int attempt = 0; attempt < backends.size(); attempt++) {
            int i = Math.floorMod(next.getAndIncrement(), backends.size());
            HttpRequest.Builder out = HttpRequest.newBuilder(backends.get(i).resolve(exchange.getRequestURI()))
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
            } catch (ConnectException e) {
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            lastBackend = i;
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
            return;
        }
        exchange.sendResponseHeaders(502, -1);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
