package legate.testsupport;

import com.google.protobuf.ByteString;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A tiny OTLP/HTTP trace receiver on 127.0.0.1: {@code POST /v1/traces} with an
 * {@code ExportTraceServiceRequest} (http/protobuf), decoded into {@link ReceivedSpan}s a test can
 * wait for. Point {@code OTEL_EXPORTER_OTLP_ENDPOINT} at {@link #endpoint()}.
 */
public final class OtlpReceiver implements AutoCloseable {
    /** One span as exported: ids in lower-case hex, as {@code traceparent} writes them. */
    public record ReceivedSpan(String service, String name, String traceId, String spanId, String parentSpanId) {
    }

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();

    public OtlpReceiver() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
        server.createContext("/v1/traces", this::receive);
        server.start();
    }

    /** The base URL, for {@code OTEL_EXPORTER_OTLP_ENDPOINT}. */
    public String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private void receive(HttpExchange exchange) throws IOException {
        try {
            decode(exchange);
        } catch (RuntimeException | IOException | LinkageError e) {
            // The JDK's server drops what a handler throws; the test's failure message shows it instead.
            failures.add(e.toString());
            throw e;
        }
    }

    private void decode(HttpExchange exchange) throws IOException {
        try (exchange; InputStream in = exchange.getRequestBody()) {
            ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(in.readAllBytes());
            for (ResourceSpans rs : request.getResourceSpansList()) {
                String service = rs.getResource().getAttributesList().stream()
                        .filter(a -> a.getKey().equals("service.name")).map(KeyValue::getValue)
                        .map(v -> v.getStringValue()).findFirst().orElse("");
                for (ScopeSpans ss : rs.getScopeSpansList()) {
                    ss.getSpansList().forEach(s -> spans.add(new ReceivedSpan(service, s.getName(), hex(s.getTraceId()),
                            hex(s.getSpanId()), hex(s.getParentSpanId()))));
                }
            }
            synchronized (this) {
                notifyAll();
            }
            byte[] ok = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
            exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
            exchange.sendResponseHeaders(200, ok.length == 0 ? -1 : ok.length);
            exchange.getResponseBody().write(ok);
        }
    }

    /** Waits, {@code max} at most, for a span that matches; fails the test with what arrived instead. */
    public ReceivedSpan await(Predicate<ReceivedSpan> wanted, Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        synchronized (this) {
            while (true) {
                for (ReceivedSpan s : spans) {
                    if (wanted.test(s)) {
                        return s;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                // Woken by the next export request.
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }
        throw new AssertionError("no such span within " + max + "; received " + spans
                + (failures.isEmpty() ? "" : "; failed to decode: " + failures));
    }

    public List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    private static String hex(ByteString bytes) {
        return HexFormat.of().formatHex(bytes.toByteArray());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
