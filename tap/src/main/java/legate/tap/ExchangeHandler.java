package legate.tap;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import legate.tap.ExchangeEvent.Frame;
import legate.tap.ExchangeEvent.Header;
import legate.tap.ExchangeEvent.Outcome;
import legate.tap.ExchangeEvent.Refused;
import legate.tap.ExchangeEvent.Response;
import legate.tap.ExchangeEvent.StreamClosed;
import legate.tap.ExchangeEvent.StreamOpened;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;

/**
 * The tap's Jetty handler: forwards one exchange to the upstream and its answer back, reporting
 * each step to the listeners. Runs blocking on the exchange's own virtual thread: the request
 * body is read whole (it is shown before it is forwarded), the response body is relayed chunk by
 * chunk as it arrives.
 */
final class ExchangeHandler extends Handler.Abstract {
    /** How much of a response body is kept for display; every byte is relayed regardless. */
    static final int MAX_SHOWN_BODY_BYTES = 1024 * 1024;

    private final URI target;
    private final int maxRequestBytes;
    private final HttpClient client;
    private final List<ExchangeListener> listeners;
    private final Clock clock;
    private final AtomicLong exchanges = new AtomicLong();

    ExchangeHandler(TapConfig config, HttpClient client, List<ExchangeListener> listeners, Clock clock) {
        super(InvocationType.BLOCKING);
        this.target = config.target();
        this.maxRequestBytes = config.maxRequestBytes();
        this.client = client;
        this.listeners = List.copyOf(listeners);
        this.clock = clock;
    }

    @Override
    public boolean handle(Request request, org.eclipse.jetty.server.Response response, Callback callback) {
        long n = exchanges.incrementAndGet();
        Instant start = clock.instant();
        String path = request.getHttpURI().getPathQuery();
        String pathQuery = path == null || path.isEmpty() ? "/" : path;
        byte[] body;
        try {
            body = readBody(request);
        } catch (BodyTooLarge e) {
            refuse(n, response, callback, ErrorReply.tooLarge(maxRequestBytes), null);
            return true;
        } catch (IOException e) {
            callback.failed(e);
            return true;
        }
        emit(new ExchangeEvent.Request(n, start, request.getMethod(), pathQuery,
                request.getConnectionMetaData().getProtocol(), shown(request.getHeaders()), body));
        HttpRequest upstream;
        try {
            upstream = ForwardedRequest.of(target, request, pathQuery, body);
        } catch (IllegalArgumentException e) {
            refuse(n, response, callback, ErrorReply.unforwardable(e.getMessage()), body);
            return true;
        }
        HttpResponse<InputStream> answer;
        try {
            answer = client.send(upstream, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            refuse(n, response, callback, ErrorReply.unreachable(target, e), body);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            callback.failed(e);
            return true;
        }
        relay(n, start, answer, response, callback);
        return true;
    }

    private void relay(long n, Instant start, HttpResponse<InputStream> answer,
                       org.eclipse.jetty.server.Response response, Callback callback) {
        try (InputStream in = answer.body()) {
            response.setStatus(answer.statusCode());
            HopByHopFields hop = new HopByHopFields(answer.headers().allValues("connection"));
            List<Header> shown = new ArrayList<>();
            for (Map.Entry<String, List<String>> h : answer.headers().map().entrySet()) {
                String name = h.getKey();
                if (name.startsWith(":") || hop.contains(name)) {
                    continue;
                }
                for (String value : h.getValue()) {
                    response.getHeaders().add(name, value);
                    ShownHeaders.collect(name, value, shown);
                }
            }
            OutputStream out = Content.Sink.asOutputStream(response);
            String type = answer.headers().firstValue("content-type").orElse("");
            boolean stream = type.toLowerCase(Locale.ROOT).startsWith("text/event-stream");
            // A stream is shown frame by frame, so none of its body is kept.
            ResponseRelay relay = new ResponseRelay(in, out, stream ? 0 : MAX_SHOWN_BODY_BYTES);
            if (stream) {
                emit(new StreamOpened(n, clock.instant(), answer.statusCode(), shown));
                int[] frames = {0};
                Outcome outcome = relay.frames(frame -> {
                    emit(new Frame(n, clock.instant(), ++frames[0], frame));
                    return true;
                });
                outcome = finish(outcome, relay, out, callback);
                Instant end = clock.instant();
                emit(new StreamClosed(n, end, frames[0], relay.bytes(), outcome, Duration.between(start, end)));
            } else {
                Outcome outcome = finish(relay.body(), relay, out, callback);
                Instant end = clock.instant();
                emit(new Response(n, end, answer.statusCode(), shown, relay.kept(), relay.bytes(), outcome,
                        Duration.between(start, end)));
            }
        } catch (IOException e) {
            // Closing the upstream body failed: the relay already ended, and the outcome was reported.
        }
    }

    /**
     * Ends the client's response the way the upstream's ended: whole when it was whole; broken off
     * (Jetty aborts the connection) when the upstream broke, so an incomplete stream never looks complete.
     */
    private static Outcome finish(Outcome outcome, ResponseRelay relay, OutputStream out, Callback callback) {
        if (outcome == Outcome.COMPLETE) {
            try {
                out.close();
                callback.succeeded();
                return Outcome.COMPLETE;
            } catch (IOException e) {
                callback.failed(e);
                return Outcome.CLIENT_GONE;
            }
        }
        // CLIENT_GONE: leaving the try-with-resources closes the upstream body, which drops that
        // connection, so the agent's stream for this client ends too.
        callback.failed(relay.failure());
        return outcome;
    }

    private byte[] readBody(Request request) throws IOException {
        long declared = request.getLength();
        if (declared > maxRequestBytes) {
            throw new BodyTooLarge();
        }
        try (InputStream in = Content.Source.asInputStream(request)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream(declared > 0 ? (int) declared : 256);
            byte[] buf = new byte[8192];
            int r;
            while ((r = in.read(buf)) >= 0) {
                if (out.size() + r > maxRequestBytes) {
                    throw new BodyTooLarge();
                }
                out.write(buf, 0, r);
            }
            return out.toByteArray();
        }
    }

    private void refuse(long n, org.eclipse.jetty.server.Response response, Callback callback, ErrorReply reply,
                        byte[] requestBody) {
        emit(new Refused(n, clock.instant(), reply.status(), reply.message()));
        response.setStatus(reply.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        Content.Sink.write(response, true, reply.json(requestBody), callback);
    }

    private static List<Header> shown(HttpFields headers) {
        List<Header> out = new ArrayList<>();
        for (HttpField field : headers) {
            ShownHeaders.collect(field.getName(), field.getValue(), out);
        }
        return out;
    }

    private void emit(ExchangeEvent event) {
        for (ExchangeListener listener : listeners) {
            try {
                listener.on(event);
            } catch (RuntimeException e) {
                System.err.println("legate tap: a listener failed on exchange #" + event.exchange() + ": " + e);
            }
        }
    }

    private static final class BodyTooLarge extends IOException {
        BodyTooLarge() {
            super("request body too large", null);
        }
    }
}
