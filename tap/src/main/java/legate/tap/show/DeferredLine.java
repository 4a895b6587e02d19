package legate.tap.show;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import legate.wire.json.WireJson;

/**
 * An event's {@link EncodedLine} with its body (a request's or a response's, a frame's data) kept
 * as it came and put in only when the line is read ({@link #line()}): for the inspector's history,
 * which keeps tens of thousands of events and reads a line back only for an export or a view. The
 * profile of the tap with its page open put escaping bodies into JSON strings at half of encoding
 * the lines; the body's bytes are the event's own (shared, never written), so keeping them costs
 * no copy.
 *
 * @param head the line without the body's member
 * @param bodyAt where in {@code head} the member goes
 * @param body the body's bytes, a frame's data as a String, or null for an event without one
 */
public record DeferredLine(byte[] head, int bodyAt, Object body) {
    public static DeferredLine of(ExchangeEvent event) {
        int[] at = {-1};
        byte[] head = EncodedLine.encode(event, false, at);
        Object body = switch (event) {
            case ExchangeEvent.Request r -> r.body();
            case ExchangeEvent.Response r -> r.body();
            case ExchangeEvent.Frame f -> f.event().data();
            default -> null;
        };
        return new DeferredLine(head, at[0], body);
    }

    /** The whole line, byte for byte what {@link EncodedLine} writes. */
    public byte[] line() {
        if (body == null) {
            return head;
        }
        byte[] member = member();
        ByteArrayOutputStream out = new ByteArrayOutputStream(head.length + member.length + 1);
        out.write(head, 0, bodyAt);
        if (member.length > 0) {
            out.write(',');
            out.writeBytes(member);
        }
        out.write(head, bodyAt, head.length - bodyAt);
        return out.toByteArray();
    }

    /** The body's member ({@code "body":...}, {@code "bodyBase64":...} or {@code "data":...}), or nothing for an empty body. */
    private byte[] member() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64);
        try (JsonGenerator g = WireJson.mapper().getFactory().createGenerator(out)) {
            g.writeStartObject();
            if (body instanceof byte[] bytes) {
                EncodedLine.body(g, bytes);
            } else {
                g.writeStringField("data", (String) body);
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("an event line could not be written", e);
        }
        byte[] object = out.toByteArray();
        // The object's members without its braces.
        return Arrays.copyOfRange(object, 1, object.length - 1);
    }
}
