package legate.a2a.server.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntUnaryOperator;
import legate.wire.json.WireJson;

/**
 * A webhook on loopback (the JDK's HTTP server) that records every POST it gets and answers each
 * with the status {@code answer} gives for its number (1 for the first), 200 unless told. Stopping
 * it frees its port, so that a receiver "down, then up" is a new one on the same port.
 */
final class WebhookReceiver implements AutoCloseable {
    /** One request as the receiver saw it: headers by lower-case name, the raw body, when. */
    record Delivery(Map<String, String> headers, byte[] body, Instant at) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        JsonNode json() throws IOException {
            return WireJson.mapper().readTree(body);
        }
    }

    private final HttpServer server;
    private final BlockingQueue<Delivery> deliveries = new LinkedBlockingQueue<>();
    private final AtomicInteger requests = new AtomicInteger();
    private volatile IntUnaryOperator answer = n -> 200;
    private volatile String location;
    private volatile CountDownLatch hold;

    WebhookReceiver() throws IOException {
        this(0);
    }

    WebhookReceiver(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 50);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        Map<String, String> headers = new TreeMap<>();
        exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
        int n = requests.incrementAndGet();
        deliveries.add(new Delivery(Map.copyOf(headers), body, Instant.now()));
        CountDownLatch h = hold;
        if (h != null) {
            try {
                // Bounded: a receiver that never lets go would outlive its test.
                h.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        int status = answer.applyAsInt(n);
        if (status >= 300 && status < 400 && location != null) {
            exchange.getResponseHeaders().add("Location", location);
        }
        exchange.sendResponseHeaders(status, -1);
        exchange.close();
    }

    /** Answers the n-th request (1 first) with {@code status.applyAsInt(n)}. */
    WebhookReceiver answering(IntUnaryOperator status) {
        this.answer = status;
        return this;
    }

    /** Holds every answer until {@code latch} opens: a slow webhook. */
    WebhookReceiver holdingUntil(CountDownLatch latch) {
        this.hold = latch;
        return this;
    }

    /** A redirect's Location. */
    WebhookReceiver redirectingTo(String url) {
        this.location = url;
        return this;
    }

    int port() {
        return server.getAddress().getPort();
    }

    String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** The next request, waiting at most {@code max}; null when none came. */
    Delivery next(Duration max) throws InterruptedException {
        return deliveries.poll(max.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The next {@code n} requests, failing (by returning fewer) when they do not come within {@code max} each. */
    List<Delivery> next(int n, Duration max) throws InterruptedException {
        List<Delivery> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Delivery d = next(max);
            if (d == null) {
                break;
            }
            out.add(d);
        }
        return out;
    }

    int requests() {
        return requests.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
