package legate.a2a.client.internal;

import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import legate.a2a.client.TransportException;
import legate.a2a.model.A2aHeaders;
import legate.a2a.model.LegateVersion;
import legate.wire.trace.Tracing;

/**
 * One HTTP exchange with an agent over the client's shared HttpClient: stamps the headers every A2A
 * request carries, waits with an optional bound on the whole exchange, and turns every I/O failure
 * into a {@link TransportException}.
 */
public final class HttpExchange {
    private static final TextMapSetter<HttpRequest.Builder> TRACE_HEADERS = (b, name, value) -> b.setHeader(name, value);
    private static final String USER_AGENT = "legate/" + LegateVersion.get();

    private final HttpClient http;
    private final Supplier<Map<String, String>> headers;

    public HttpExchange(HttpClient http, Map<String, String> headers) {
        this(http, () -> headers);
    }

    /** @param headers asked for each request: a credential may change between calls (an access token renewed) */
    public HttpExchange(HttpClient http, Supplier<Map<String, String>> headers) {
        this.http = http;
        this.headers = headers;
    }

    /**
     * A request builder for {@code uri} with the service parameters set. PROTOCOL (A2A §3.6): a
     * client sends {@code A2A-Version} on every request, the card fetch included, because an absent
     * header means 0.3 and a 1.0-only server refuses it (PEER @a2a-js/sdk 1.2.0: -32009, HTTP 500).
     */
    public HttpRequest.Builder request(URI uri) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .header(A2aHeaders.VERSION, A2aHeaders.PROTOCOL_VERSION)
                .header("User-Agent", USER_AGENT);
        headers.get().forEach(b::header);
        // W3C Trace Context: the current span (a tool call of legate mcp, an agent's turn) becomes the
        // parent of the agent's request span, so one trace crosses agents. Without a span, nothing is written.
        Tracing.propagator().inject(Context.current(), b, TRACE_HEADERS);
        return b;
    }

    /**
     * Sends and reads the whole body, within {@code bound} when it is not null (the timer covers the
     * body too, which the JDK's per-request timeout does not).
     *
     * <p>DEFECT: this waited on {@code HttpClient.sendAsync}, whose future the JDK completes on the
     * common ForkJoinPool. On two cores that pool has one thread, so a single task blocked there
     * anywhere in the process (seen: a test's receiver) held every later call of every client past
     * its bound although the answer had arrived. The blocking {@code send} completes on the client's
     * own executor; it runs on a virtual thread of its own, and a call past its bound is interrupted,
     * which makes the JDK cancel the exchange.
     */
    public HttpResponse<byte[]> send(HttpRequest request, Duration bound) {
        if (bound == null) {
            return sendHere(request, HttpResponse.BodyHandlers.ofByteArray());
        }
        FutureTask<HttpResponse<byte[]>> call = new FutureTask<>(() -> http.send(request, HttpResponse.BodyHandlers.ofByteArray()));
        Thread sender = Thread.ofVirtual().name("legate-http-exchange").start(call);
        try {
            return call.get(bound.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            sender.interrupt();
            throw new TransportException(TransportException.Kind.TIMED_OUT, request.uri(),
                    "no answer from " + request.uri() + " within " + seconds(bound), e);
        } catch (InterruptedException e) {
            sender.interrupt();
            Thread.currentThread().interrupt();
            throw interrupted(request.uri(), e);
        } catch (ExecutionException e) {
            throw failure(e.getCause(), request.uri());
        }
    }

    /** Sends and returns as soon as the headers arrive; the body is read as it comes, with no bound. */
    public HttpResponse<java.io.InputStream> open(HttpRequest request) {
        return sendHere(request, HttpResponse.BodyHandlers.ofInputStream());
    }

    /** The blocking send on the calling thread, with no bound of its own. */
    private <T> HttpResponse<T> sendHere(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return http.send(request, handler);
        } catch (IOException e) {
            throw TransportException.of(e, request.uri());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw interrupted(request.uri(), e);
        }
    }

    /** The media type of a response without parameters, lower-case; "" when there is none. */
    public static String mediaType(HttpResponse<?> response) {
        String type = response.headers().firstValue("Content-Type").orElse("");
        return type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
    }

    static TransportException interrupted(URI uri, InterruptedException e) {
        return new TransportException(TransportException.Kind.INTERRUPTED, uri, "interrupted while waiting for " + uri, e);
    }

    private static RuntimeException failure(Throwable cause, URI uri) {
        if (cause instanceof IOException io) {
            return TransportException.of(io, uri);
        }
        if (cause instanceof RuntimeException r) {
            return r;
        }
        return new IllegalStateException(cause);
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
