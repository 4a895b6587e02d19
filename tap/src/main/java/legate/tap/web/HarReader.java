package legate.tap.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import legate.tap.show.EventLine;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Refused;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;
import legate.tap.show.ShownHeaders;
import legate.wire.sse.SseParser;

/**
 * A HAR 1.2 file read back into the tap's events, one exchange per entry: a {@link HarFile} export
 * whole (its frames with their arrival times, its flags and refusals, from the underscore fields),
 * or a HAR from elsewhere, whose streams are split into frames from their text and whose stream
 * head arrives after the entry's {@code timings.wait}. A gRPC server stream is told by
 * {@code _stream}, its status by {@code _trailers}.
 */
final class HarReader {
    private HarReader() {
    }

    /**
     * The events a HAR file records.
     *
     * @throws IllegalArgumentException naming what is missing, for a file that is not HAR
     */
    static List<ExchangeEvent> read(JsonNode har) {
        JsonNode entries = har.path("log").path("entries");
        if (!entries.isArray()) {
            throw new IllegalArgumentException("not a HAR file: no log.entries");
        }
        List<ExchangeEvent> events = new ArrayList<>();
        long n = 0;
        for (JsonNode entry : entries) {
            n = entry.path("_exchange").asLong(n + 1);
            readEntry(n, entry, events);
        }
        return events;
    }

    private static void readEntry(long n, JsonNode entry, List<ExchangeEvent> events) {
        Instant start = time(entry.path("startedDateTime").asText(""));
        JsonNode req = entry.path("request");
        URI url;
        try {
            url = URI.create(req.path("url").asText(""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("entry " + n + ": request.url is not a URL");
        }
        String target = (url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath())
                + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery());
        events.add(new Request(n, start, req.path("method").asText("GET"), target, req.path("httpVersion").asText("HTTP/1.1"),
                headers(req), req.path("postData").path("text").asText("").getBytes(StandardCharsets.UTF_8)));
        JsonNode res = entry.path("response");
        Duration time = Duration.ofMillis(Math.max(0, entry.path("time").asLong(0)));
        Instant end = start.plus(time);
        JsonNode content = res.path("content");
        Outcome outcome = outcome(entry.path("_outcome").asText("COMPLETE"));
        if (entry.hasNonNull("_refused")) {
            events.add(new Refused(n, end, res.path("status").asInt(), entry.get("_refused").asText()));
        } else if (content.path("mimeType").asText("").toLowerCase(Locale.ROOT).startsWith("text/event-stream")
                || entry.path("_stream").asBoolean(false)) {
            Instant opened = start.plusMillis(Math.max(0, entry.path("timings").path("wait").asLong(0)));
            events.add(new StreamOpened(n, opened, res.path("status").asInt(), headers(res)));
            int frames = entry.has("_frames") ? recordedFrames(n, entry.get("_frames"), events)
                    : parsedFrames(n, start, content.path("text").asText(""), events);
            events.add(new StreamClosed(n, end, frames, content.path("size").asLong(0), outcome, time,
                    fields(entry.path("_trailers"))));
        } else {
            byte[] body = body(content);
            events.add(new Response(n, end, res.path("status").asInt(), headers(res), body,
                    Math.max(body.length, content.path("size").asLong(body.length)), outcome, time));
        }
        for (JsonNode f : entry.path("_flags")) {
            events.add(EventLine.read(((ObjectNode) f.deepCopy()).put("exchange", n).put("event", "flagged")));
        }
    }

    private static int recordedFrames(long n, JsonNode frames, List<ExchangeEvent> events) {
        int count = 0;
        for (JsonNode f : frames) {
            if (!f.isObject()) {
                throw new IllegalArgumentException("entry " + n + ": a recorded frame is not an object");
            }
            events.add(EventLine.read(((ObjectNode) f.deepCopy()).put("exchange", n).put("event", "frame")));
            count++;
        }
        return count;
    }

    private static int parsedFrames(long n, Instant at, String text, List<ExchangeEvent> events) {
        List<Frame> frames = new ArrayList<>();
        try {
            new SseParser(16 * 1024 * 1024).parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), event -> {
                frames.add(new Frame(n, at, frames.size() + 1, event));
                return true;
            });
        } catch (IOException e) {
            throw new IllegalArgumentException("entry " + n + ": its event stream cannot be read: " + e.getMessage());
        }
        events.addAll(frames);
        return frames.size();
    }

    private static byte[] body(JsonNode content) {
        String text = content.path("text").asText("");
        if (content.path("encoding").asText("").equals("base64")) {
            try {
                return Base64.getDecoder().decode(text);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("a response's base64 content is not base64");
            }
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static List<Header> headers(JsonNode message) {
        return fields(message.path("headers"));
    }

    /** HAR's name-value pairs, as headers or trailers. */
    private static List<Header> fields(JsonNode pairs) {
        List<Header> headers = new ArrayList<>();
        for (JsonNode h : pairs) {
            // A HAR saved by a browser holds credentials in full; shown, they are masked as the tap masks them.
            ShownHeaders.ALL.collect(h.path("name").asText(""), h.path("value").asText(""), headers);
        }
        return headers;
    }

    private static Outcome outcome(String name) {
        for (Outcome o : Outcome.values()) {
            if (o.name().equals(name)) {
                return o;
            }
        }
        return Outcome.COMPLETE;
    }

    private static Instant time(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("an entry's startedDateTime is not an ISO 8601 time: \"" + text + "\"");
        }
    }
}
