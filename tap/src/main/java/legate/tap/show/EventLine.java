package legate.tap.show;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import legate.tap.show.ExchangeEvent.Flagged;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Refused;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;
import legate.wire.json.WireJson;
import legate.wire.sse.SseEvent;

/**
 * One {@link ExchangeEvent} as a line of the tap's JSON Lines: {@code at}, {@code exchange},
 * {@code event} ({@code request}, {@code response}, {@code stream-opened}, {@code frame},
 * {@code stream-closed}, {@code refused}, {@code flagged}) and the event's own fields ({@code trailers}
 * only on a stream-closed that has some: a gRPC stream's status). The log
 * writes these lines, the web page reads them live, and {@link #read} turns a recorded line back
 * into its event, so a session can be replayed or imported.
 *
 * <p>A body is a {@code body} string when it is valid UTF-8, else {@code bodyBase64}.
 */
public final class EventLine {
    private EventLine() {
    }

    /** The event as a JSON object. */
    public static ObjectNode of(ExchangeEvent event) {
        ObjectNode line = WireJson.mapper().createObjectNode();
        line.put("at", event.at().toString());
        line.put("exchange", event.exchange());
        switch (event) {
            case Request r -> {
                line.put("event", "request");
                line.put("method", r.method());
                line.put("target", r.target());
                line.put("protocol", r.protocol());
                headers(line, r.headers());
                body(line, r.body());
            }
            case Response r -> {
                line.put("event", "response");
                line.put("status", r.status());
                headers(line, r.headers());
                body(line, r.body());
                line.put("bodyBytes", r.bodyBytes());
                if (r.body().length < r.bodyBytes()) {
                    line.put("bodyCut", true);
                }
                line.put("outcome", r.outcome().name());
                line.put("elapsedMs", r.elapsed().toMillis());
            }
            case StreamOpened s -> {
                line.put("event", "stream-opened");
                line.put("status", s.status());
                headers(line, s.headers());
            }
            case Frame f -> {
                line.put("event", "frame");
                line.put("index", f.index());
                line.put("type", f.event().event());
                line.put("data", f.event().data());
                if (f.event().id() != null) {
                    line.put("id", f.event().id());
                }
            }
            case StreamClosed c -> {
                line.put("event", "stream-closed");
                line.put("frames", c.frames());
                line.put("bodyBytes", c.bodyBytes());
                line.put("outcome", c.outcome().name());
                line.put("elapsedMs", c.elapsed().toMillis());
                if (!c.trailers().isEmpty()) {
                    headers(line, "trailers", c.trailers());
                }
            }
            case Refused r -> {
                line.put("event", "refused");
                line.put("status", r.status());
                line.put("reason", r.reason());
            }
            case Flagged f -> {
                line.put("event", "flagged");
                line.put("problem", f.problem().name());
                line.put("summary", f.problem().summary());
                line.put("detail", f.detail());
            }
        }
        return line;
    }

    /**
     * The event a recorded line describes.
     *
     * @throws IllegalArgumentException naming what is wrong, when the line is not one the tap writes
     */
    public static ExchangeEvent read(JsonNode line) {
        if (!line.isObject()) {
            throw new IllegalArgumentException("a line is not a JSON object");
        }
        long n = line.path("exchange").asLong(-1);
        if (n < 0) {
            throw new IllegalArgumentException("a line has no exchange number");
        }
        Instant at;
        try {
            at = Instant.parse(text(line, "at"));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("a line's \"at\" is not a time: " + line.path("at").asText());
        }
        String event = text(line, "event");
        return switch (event) {
            case "request" -> new Request(n, at, text(line, "method"), text(line, "target"),
                    line.path("protocol").asText("HTTP/1.1"), headers(line), body(line));
            case "response" -> {
                byte[] body = body(line);
                yield new Response(n, at, line.path("status").asInt(), headers(line), body,
                        line.path("bodyBytes").asLong(body.length), outcome(line), elapsed(line));
            }
            case "stream-opened" -> new StreamOpened(n, at, line.path("status").asInt(), headers(line));
            case "frame" -> new Frame(n, at, line.path("index").asInt(), new SseEvent(line.path("type").asText(null),
                    line.path("data").asText(""), line.path("id").asText(null)));
            case "stream-closed" -> new StreamClosed(n, at, line.path("frames").asInt(), line.path("bodyBytes").asLong(),
                    outcome(line), elapsed(line), headers(line, "trailers"));
            case "refused" -> new Refused(n, at, line.path("status").asInt(), line.path("reason").asText(""));
            case "flagged" -> {
                try {
                    yield new Flagged(n, at, Problem.valueOf(text(line, "problem")), line.path("detail").asText(""));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("a flagged line names an unknown problem: " + line.path("problem"));
                }
            }
            default -> throw new IllegalArgumentException("a line's event is \"" + event + "\", which the tap does not write");
        };
    }

    private static String text(JsonNode line, String field) {
        JsonNode v = line.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("a line has no \"" + field + "\"");
        }
        return v.asText();
    }

    private static void headers(ObjectNode line, List<Header> headers) {
        headers(line, "headers", headers);
    }

    private static void headers(ObjectNode line, String member, List<Header> headers) {
        ObjectNode h = line.putObject(member);
        for (Header header : headers) {
            String prior = h.has(header.name()) ? h.get(header.name()).asText() + ", " : "";
            h.put(header.name(), prior + header.value());
        }
    }

    private static List<Header> headers(JsonNode line) {
        return headers(line, "headers");
    }

    private static List<Header> headers(JsonNode line, String member) {
        List<Header> headers = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = line.path(member).fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            headers.add(new Header(e.getKey(), e.getValue().asText()));
        }
        return headers;
    }

    private static void body(ObjectNode line, byte[] body) {
        if (body.length == 0) {
            return;
        }
        try {
            line.put("body", StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body)).toString());
        } catch (CharacterCodingException e) {
            line.put("bodyBase64", Base64.getEncoder().encodeToString(body));
        }
    }

    private static byte[] body(JsonNode line) {
        if (line.hasNonNull("bodyBase64")) {
            try {
                return Base64.getDecoder().decode(line.get("bodyBase64").asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("a line's bodyBase64 is not base64");
            }
        }
        return line.path("body").asText("").getBytes(StandardCharsets.UTF_8);
    }

    private static Outcome outcome(JsonNode line) {
        try {
            return Outcome.valueOf(line.path("outcome").asText("COMPLETE"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a line's outcome is unknown: " + line.path("outcome"));
        }
    }

    private static Duration elapsed(JsonNode line) {
        return Duration.ofMillis(line.path("elapsedMs").asLong(0));
    }
}
