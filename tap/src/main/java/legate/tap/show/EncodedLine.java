package legate.tap.show;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
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
 * An event's {@link EventLine} as UTF-8 bytes, encoded once for every listener that wants it (the
 * log, the web page) and for every page: the same bytes as {@code WireJson.write(EventLine.of(e))},
 * written straight from the event with a streaming generator, with no tree and no body decoded into
 * a String and escaped again. The profile of the tap with its page open put the tree and its
 * serialisation at a third of the listener thread's time, and the objects it kept in the history at
 * most of its garbage collection.
 */
public record EncodedLine(ExchangeEvent event, byte[] bytes) {
    /** The last event encoded: the log and the page get the listener thread's events one at a time, in turn. */
    private static volatile EncodedLine last;
    /** The last second written, as {@link Instant#toString()} writes it without the "Z": events come many a second. */
    private static volatile Second lastSecond;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private record Second(long epochSecond, String text) {
    }

    /** The event's line; the same instance for the same event asked again at once (by the next listener). */
    public static EncodedLine of(ExchangeEvent event) {
        EncodedLine l = last;
        if (l != null && l.event == event) {
            return l;
        }
        l = new EncodedLine(event, encode(event));
        last = l;
        return l;
    }

    private static byte[] encode(ExchangeEvent event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = WireJson.mapper().getFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("at", instant(event.at()));
            g.writeNumberField("exchange", event.exchange());
            switch (event) {
                case Request r -> {
                    g.writeStringField("event", "request");
                    g.writeStringField("method", r.method());
                    g.writeStringField("target", r.target());
                    g.writeStringField("protocol", r.protocol());
                    headers(g, r.headers());
                    body(g, r.body());
                }
                case Response r -> {
                    g.writeStringField("event", "response");
                    g.writeNumberField("status", r.status());
                    headers(g, r.headers());
                    body(g, r.body());
                    g.writeNumberField("bodyBytes", r.bodyBytes());
                    if (r.body().length < r.bodyBytes()) {
                        g.writeBooleanField("bodyCut", true);
                    }
                    g.writeStringField("outcome", r.outcome().name());
                    g.writeNumberField("elapsedMs", r.elapsed().toMillis());
                }
                case StreamOpened s -> {
                    g.writeStringField("event", "stream-opened");
                    g.writeNumberField("status", s.status());
                    headers(g, s.headers());
                }
                case Frame f -> {
                    g.writeStringField("event", "frame");
                    g.writeNumberField("index", f.index());
                    g.writeStringField("type", f.event().event());
                    g.writeStringField("data", f.event().data());
                    if (f.event().id() != null) {
                        g.writeStringField("id", f.event().id());
                    }
                }
                case StreamClosed c -> {
                    g.writeStringField("event", "stream-closed");
                    g.writeNumberField("frames", c.frames());
                    g.writeNumberField("bodyBytes", c.bodyBytes());
                    g.writeStringField("outcome", c.outcome().name());
                    g.writeNumberField("elapsedMs", c.elapsed().toMillis());
                    if (!c.trailers().isEmpty()) {
                        headers(g, "trailers", c.trailers());
                    }
                }
                case Refused r -> {
                    g.writeStringField("event", "refused");
                    g.writeNumberField("status", r.status());
                    g.writeStringField("reason", r.reason());
                }
                case Flagged f -> {
                    g.writeStringField("event", "flagged");
                    g.writeStringField("problem", f.problem().name());
                    g.writeStringField("summary", f.problem().summary());
                    g.writeStringField("detail", f.detail());
                }
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("an event line could not be written", e);
        }
        return out.toByteArray();
    }

    /** Repeated names joined with ", " as {@link EventLine} does. */
    private static void headers(JsonGenerator g, List<Header> headers) throws IOException {
        headers(g, "headers", headers);
    }

    private static void headers(JsonGenerator g, String member, List<Header> headers) throws IOException {
        g.writeObjectFieldStart(member);
        for (int i = 0; i < headers.size(); i++) {
            String name = headers.get(i).name();
            if (seenBefore(headers, i, name)) {
                continue;
            }
            String value = headers.get(i).value();
            for (int j = i + 1; j < headers.size(); j++) {
                if (headers.get(j).name().equals(name)) {
                    value = value + ", " + headers.get(j).value();
                }
            }
            g.writeStringField(name, value);
        }
        g.writeEndObject();
    }

    private static boolean seenBefore(List<Header> headers, int i, String name) {
        for (int j = 0; j < i; j++) {
            if (headers.get(j).name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The member of a body: {@code "body"} when it is well-formed UTF-8, the bytes copied, never
     * decoded; else {@code "bodyBase64"}; none when empty.
     */
    private static void body(JsonGenerator g, byte[] body) throws IOException {
        if (body.length == 0) {
            return;
        }
        if (isUtf8(body)) {
            g.writeFieldName("body");
            g.writeUTF8String(body, 0, body.length);
        } else {
            g.writeStringField("bodyBase64", Base64.getEncoder().encodeToString(body));
        }
    }

    /**
     * What {@link Instant#toString()} writes (ISO-8601, the fraction in groups of three digits, none
     * when zero), with the date and time of day formatted once a second: the profile put
     * {@code Instant.toString} at a sixth of the encoding.
     */
    public static String instant(Instant at) {
        Second s = lastSecond;
        if (s == null || s.epochSecond() != at.getEpochSecond()) {
            String whole = Instant.ofEpochSecond(at.getEpochSecond()).toString();
            s = new Second(at.getEpochSecond(), whole.substring(0, whole.length() - 1));
            lastSecond = s;
        }
        int nano = at.getNano();
        if (nano == 0) {
            return s.text() + "Z";
        }
        int digits = nano % 1_000_000 == 0 ? 3 : nano % 1_000 == 0 ? 6 : 9;
        int value = digits == 3 ? nano / 1_000_000 : digits == 6 ? nano / 1_000 : nano;
        String fraction = Integer.toString(value);
        return s.text() + "." + "0".repeat(digits - fraction.length()) + fraction + "Z";
    }

    private static boolean isUtf8(byte[] body) {
        // ASCII, the common case, eight bytes at a time; anything else through the strict decoder.
        int i = 0;
        for (; i + 8 <= body.length; i += 8) {
            if (((long) LONGS.get(body, i) & 0x8080808080808080L) != 0) {
                return decodes(body);
            }
        }
        for (; i < body.length; i++) {
            if (body[i] < 0) {
                return decodes(body);
            }
        }
        return true;
    }

    private static boolean decodes(byte[] body) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
