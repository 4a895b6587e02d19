package legate.tap.web;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import legate.tap.show.EventLine;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeEvent.Flagged;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Refused;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;
import legate.wire.json.WireJson;

/**
 * A session as an HTTP Archive (HAR 1.2): one entry per exchange, so the traffic opens in a
 * browser's network panel or any HAR viewer. A stream's body is its SSE text; what HAR has no
 * field for is kept in underscore fields, which HAR 1.2 allows for custom data: {@code _exchange}
 * (the tap's number), {@code _frames} (each frame with its arrival time), {@code _flags} (the
 * problems seen), {@code _refused} (the tap's own answer), {@code _stream} (a stream, which a gRPC
 * one's content type does not say) and {@code _trailers} (a gRPC stream's status). A gRPC call's
 * content is its messages as ProtoJSON, one a line, and its entry says so in its comment.
 * {@link HarReader} turns such a file back into events.
 */
final class HarFile {
    private static final String CREATOR = "legate tap";
    /** What a gRPC call's request says it went over: its HTTP/2 stream. */
    private static final String GRPC_PROTOCOL = "HTTP/2";

    private HarFile() {
    }

    /** @param origin the agent's origin, to make the absolute URLs HAR wants */
    static ObjectNode write(List<ExchangeEvent> events, URI origin) {
        Map<Long, List<ExchangeEvent>> byExchange = new LinkedHashMap<>();
        for (ExchangeEvent e : events) {
            byExchange.computeIfAbsent(e.exchange(), n -> new ArrayList<>()).add(e);
        }
        ObjectNode har = WireJson.mapper().createObjectNode();
        ObjectNode log = har.putObject("log");
        log.put("version", "1.2");
        log.putObject("creator").put("name", CREATOR).put("version", "1");
        ArrayNode entries = log.putArray("entries");
        for (List<ExchangeEvent> exchange : byExchange.values()) {
            if (exchange.getFirst() instanceof Request request) {
                entries.add(entry(request, exchange, origin));
            }
        }
        return har;
    }

    private static ObjectNode entry(Request request, List<ExchangeEvent> events, URI origin) {
        ObjectNode entry = WireJson.mapper().createObjectNode();
        entry.put("startedDateTime", request.at().toString());
        entry.put("_exchange", request.exchange());
        boolean grpc = request.protocol().equals(GRPC_PROTOCOL);
        if (grpc) {
            entry.put("comment", "a gRPC call: its messages and google.rpc.Status as ProtoJSON, as legate tap decoded them");
        }
        ObjectNode req = entry.putObject("request");
        req.put("method", request.method());
        req.put("url", origin + request.target());
        req.put("httpVersion", request.protocol());
        req.putArray("cookies");
        headers(req, request.headers());
        ArrayNode query = req.putArray("queryString");
        String rawQuery = URI.create(origin + request.target()).getRawQuery();
        if (rawQuery != null) {
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                query.addObject().put("name", eq < 0 ? pair : pair.substring(0, eq)).put("value", eq < 0 ? "" : pair.substring(eq + 1));
            }
        }
        if (request.body().length > 0) {
            req.putObject("postData").put("mimeType", header(request.headers(), "Content-Type"))
                    .put("text", new String(request.body(), StandardCharsets.UTF_8));
        }
        req.put("headersSize", -1);
        req.put("bodySize", request.body().length);
        ObjectNode res = entry.putObject("response");
        res.put("status", 0).put("statusText", "").put("httpVersion", request.protocol());
        res.putArray("cookies");
        res.putArray("headers");
        ObjectNode content = res.putObject("content");
        content.put("size", 0).put("mimeType", "");
        res.put("redirectURL", "").put("headersSize", -1).put("bodySize", -1);
        ArrayNode frames = WireJson.mapper().createArrayNode();
        ArrayNode flags = WireJson.mapper().createArrayNode();
        StringBuilder stream = new StringBuilder();
        long time = 0;
        long wait = -1;
        for (ExchangeEvent e : events) {
            switch (e) {
                case Request r -> {
                    // the entry's request, written above
                }
                case Response r -> {
                    res.put("status", r.status());
                    headers(res, r.headers());
                    content.put("size", r.bodyBytes()).put("mimeType", header(r.headers(), "Content-Type"))
                            .put("text", new String(r.body(), StandardCharsets.UTF_8));
                    res.put("bodySize", r.bodyBytes());
                    time = r.elapsed().toMillis();
                    entry.put("_outcome", r.outcome().name());
                }
                case StreamOpened s -> {
                    // HAR's wait is the time to the response's head; a stream's frames are its receive time.
                    wait = Duration.between(request.at(), s.at()).toMillis();
                    entry.put("_stream", true);
                    res.put("status", s.status());
                    headers(res, s.headers());
                    content.put("mimeType", header(s.headers(), "Content-Type"));
                }
                case Frame f -> {
                    frames.add(EventLine.of(f).without(List.of("exchange", "event")));
                    if (grpc) {
                        // A gRPC stream's messages, one ProtoJSON line each: it has no SSE text.
                        stream.append(f.event().data()).append('\n');
                    } else {
                        sse(stream, f);
                    }
                }
                case StreamClosed c -> {
                    content.put("size", c.bodyBytes()).put("text", stream.toString());
                    if (!c.trailers().isEmpty()) {
                        pairs(entry.putArray("_trailers"), c.trailers());
                    }
                    res.put("bodySize", c.bodyBytes());
                    time = c.elapsed().toMillis();
                    entry.put("_outcome", c.outcome().name());
                }
                case Refused r -> {
                    res.put("status", r.status());
                    content.put("mimeType", "text/plain").put("text", r.reason());
                    entry.put("_refused", r.reason());
                    time = Duration.between(request.at(), r.at()).toMillis();
                }
                case Flagged f -> flags.add(EventLine.of(f).without(List.of("exchange", "event")));
            }
        }
        if (!frames.isEmpty()) {
            entry.set("_frames", frames);
        }
        if (!flags.isEmpty()) {
            entry.set("_flags", flags);
        }
        entry.put("time", Math.max(0, time));
        entry.putObject("cache");
        long waited = wait < 0 ? Math.max(0, time) : Math.min(Math.max(0, time), wait);
        entry.putObject("timings").put("send", 0).put("wait", waited).put("receive", Math.max(0, time) - waited);
        return entry;
    }

    /** The frame as the SSE text that carried it. */
    private static void sse(StringBuilder stream, Frame f) {
        if (!f.event().event().equals("message")) {
            stream.append("event: ").append(f.event().event()).append('\n');
        }
        if (f.event().id() != null) {
            stream.append("id: ").append(f.event().id()).append('\n');
        }
        for (String line : f.event().data().split("\n", -1)) {
            stream.append("data: ").append(line).append('\n');
        }
        stream.append('\n');
    }

    private static void headers(ObjectNode message, List<Header> headers) {
        pairs(message.putArray("headers"), headers);
    }

    private static void pairs(ArrayNode out, List<Header> headers) {
        for (Header h : headers) {
            out.addObject().put("name", h.name()).put("value", h.value());
        }
    }

    private static String header(List<Header> headers, String name) {
        return headers.stream().filter(h -> h.name().equalsIgnoreCase(name)).map(Header::value).findFirst().orElse("");
    }
}
