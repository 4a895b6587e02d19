package legate.tap;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
 * each step to the listeners as it passes. Runs blocking on the exchange's own virtual thread: the request
 * body is read whole (it is shown before it is forwarded), the response body is relayed chunk by
 * chunk as it arrives.
 */
final class ExchangeHandler extends Handler.Abstract {
    /** How much of a response body is kept for display; every byte is relayed regardless. */
    static final int MAX_SHOWN_BODY_BYTES = 1024 * 1024;

    private final URI target;
    private final int maxRequestBytes;
    private final UpstreamClient client;
    private final ExchangeListener listener;
    private final Clock clock;
    private final AtomicLong exchanges = new AtomicLong();

    /** @param listener takes each event without waiting for it to be shown ({@link ListenerThread}) */
    ExchangeHandler(TapConfig config, UpstreamClient client, ExchangeListener listener, Clock clock) {
        super(InvocationType.BLOCKING);
        this.target = config.target();
        this.maxRequestBytes = config.maxRequestBytes();
        this.client = client;
        this.listener = listener;
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
        ForwardedRequest upstream;
        try {
            upstream = ForwardedRequest.of(target, request, pathQuery, body);
        } catch (IllegalArgumentException e) {
            refuse(n, response, callback, ErrorReply.unforwardable(e.getMessage()), body);
            return true;
        }
        UpstreamConnection answer;
        try {
            answer = client.exchange(upstream);
        } catch (IOException e) {
            refuse(n, response, callback, ErrorReply.unreachable(target, e), body);
            return true;
        }
        try {
            relay(n, start, answer, response, callback);
        } finally {
            // Kept for the next exchange when the body was read to its end; otherwise closed, so
            // the agent's stream for a client that went away ends too.
            client.release(answer);
        }
        return true;
    }

    private void relay(long n, Instant start, UpstreamConnection answer,
                       org.eclipse.jetty.server.Response response, Callback callback) {
        InputStream in = answer.body();
        int status = answer.status();
        response.setStatus(status);
        HttpFields headers = answer.headers();
        HopByHopFields hop = new HopByHopFields(headers.getValuesList(HttpHeader.CONNECTION));
        List<Header> shown = new ArrayList<>();
        HttpFields.Mutable out = response.getHeaders();
        for (HttpField field : headers) {
            String name = field.getName();
            if (hop.contains(name)) {
                continue;
            }
            out.add(field);
            ShownHeaders.collect(name, field.getValue(), shown);
        }
        String type = headers.get(HttpHeader.CONTENT_TYPE);
        boolean stream = type != null && type.regionMatches(true, 0, "text/event-stream", 0, 17);
        OutputStream body = Content.Sink.asOutputStream(response);
        // A stream is shown frame by frame, so none of its body is kept.
        ResponseRelay relay = new ResponseRelay(in, body, stream ? 0 : MAX_SHOWN_BODY_BYTES);
        if (stream) {
            emit(new StreamOpened(n, clock.instant(), status, shown));
            int[] frames = {0};
            Outcome outcome = relay.frames(frame -> {
                emit(new Frame(n, clock.instant(), ++frames[0], frame));
                return true;
            });
            outcome = finish(outcome, relay, body, callback);
            Instant end = clock.instant();
            emit(new StreamClosed(n, end, frames[0], relay.bytes(), outcome, Duration.between(start, end)));
        } else {
            Outcome outcome = finish(relay.body(), relay, body, callback);
            Instant end = clock.instant();
            emit(new Response(n, end, status, shown, relay.kept(), relay.bytes(), outcome,
                    Duration.between(start, end)));
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
        // CLIENT_GONE: the upstream body was not read to its end, so releasing the connection closes
        // it, and the agent's stream for this client ends too.
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
        listener.on(event);
    }

    private static final class BodyTooLarge extends IOException {
        BodyTooLarge() {
            super("request body too large", null);
        }
    }
}
