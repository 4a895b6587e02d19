package legate.tap.web;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeEvent.Flagged;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Refused;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;
import legate.tap.show.Problem;
import legate.wire.sse.SseEvent;

/**
 * An event as the inspector's history keeps it: its fields one after another in bytes, numbers as
 * they are, strings as their characters, a body as its bytes; read back into the same event, so an
 * export or a view writes the line the log would have written ({@code EncodedLine}). Packing is a
 * copy, not an encoding: measured with bench workload 8, writing each event's JSON line as it came
 * was a tenth of what the page cost the tap, for lines that are read back only when a person asks.
 *
 * <p>Strings are written as ASCII when they are, else as UTF-16 code units, so any String, a lone
 * surrogate included, reads back as it was.
 */
final class PackedEvent {
    private static final byte REQUEST = 1;
    private static final byte RESPONSE = 2;
    private static final byte STREAM_OPENED = 3;
    private static final byte FRAME = 4;
    private static final byte STREAM_CLOSED = 5;
    private static final byte REFUSED = 6;
    private static final byte FLAGGED = 7;
    private static final Outcome[] OUTCOMES = Outcome.values();
    private static final Problem[] PROBLEMS = Problem.values();

    private PackedEvent() {
    }

    /** Where events are packed: a buffer reused event after event. */
    static final class Packer {
        private byte[] bytes = new byte[1024];
        private int size;

        byte[] bytes() {
            return bytes;
        }

        int size() {
            return size;
        }

        /** Packs the event, over whatever was packed before; without its body or frame data if {@code bodies} is false. */
        Packer pack(ExchangeEvent event, boolean bodies) {
            size = 0;
            switch (event) {
                case Request r -> {
                    head(REQUEST, r);
                    string(r.method());
                    string(r.target());
                    string(r.protocol());
                    headers(r.headers());
                    body(bodies ? r.body() : null);
                }
                case Response r -> {
                    head(RESPONSE, r);
                    integer(r.status());
                    headers(r.headers());
                    body(bodies ? r.body() : null);
                    number(r.bodyBytes());
                    integer(r.outcome().ordinal());
                    number(r.elapsed().toNanos());
                }
                case StreamOpened s -> {
                    head(STREAM_OPENED, s);
                    integer(s.status());
                    headers(s.headers());
                }
                case Frame f -> {
                    head(FRAME, f);
                    integer(f.index());
                    string(f.event().event());
                    string(bodies ? f.event().data() : "");
                    string(f.event().id());
                }
                case StreamClosed c -> {
                    head(STREAM_CLOSED, c);
                    integer(c.frames());
                    number(c.bodyBytes());
                    integer(c.outcome().ordinal());
                    number(c.elapsed().toNanos());
                    headers(c.trailers());
                }
                case Refused r -> {
                    head(REFUSED, r);
                    integer(r.status());
                    string(r.reason());
                }
                case Flagged f -> {
                    head(FLAGGED, f);
                    integer(f.problem().ordinal());
                    string(f.detail());
                }
            }
            return this;
        }

        private void head(byte kind, ExchangeEvent e) {
            room(1);
            bytes[size++] = kind;
            number(e.exchange());
            number(e.at().getEpochSecond());
            integer(e.at().getNano());
        }

        private void headers(List<Header> headers) {
            integer(headers.size());
            for (Header h : headers) {
                string(h.name());
                string(h.value());
            }
        }

        private void body(byte[] body) {
            if (body == null) {
                integer(0);
                return;
            }
            integer(body.length);
            room(body.length);
            System.arraycopy(body, 0, bytes, size, body.length);
            size += body.length;
        }

        /** -1 for null; else the length, shifted left once, its low bit saying whether two bytes a character follow. */
        private void string(String s) {
            if (s == null) {
                integer(-1);
                return;
            }
            int n = s.length();
            room(5 + 2 * n);
            int lengthAt = size;
            size += 4;
            boolean ascii = true;
            for (int i = 0; i < n && ascii; i++) {
                char c = s.charAt(i);
                ascii = c < 0x80;
                bytes[size + i] = (byte) c;
            }
            if (ascii) {
                size += n;
                put(lengthAt, n << 1);
                return;
            }
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                bytes[size++] = (byte) (c >>> 8);
                bytes[size++] = (byte) c;
            }
            put(lengthAt, n << 1 | 1);
        }

        private void integer(int v) {
            room(4);
            put(size, v);
            size += 4;
        }

        private void number(long v) {
            integer((int) (v >>> 32));
            integer((int) v);
        }

        private void put(int at, int v) {
            bytes[at] = (byte) (v >>> 24);
            bytes[at + 1] = (byte) (v >>> 16);
            bytes[at + 2] = (byte) (v >>> 8);
            bytes[at + 3] = (byte) v;
        }

        private void room(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }
    }

    /** The event packed in {@code bytes}. */
    static ExchangeEvent unpack(byte[] bytes) {
        return new Unpacker(bytes).event();
    }

    private static final class Unpacker {
        private final byte[] bytes;
        private int at;

        Unpacker(byte[] bytes) {
            this.bytes = bytes;
        }

        ExchangeEvent event() {
            byte kind = bytes[at++];
            long exchange = number();
            Instant when = Instant.ofEpochSecond(number(), integer());
            return switch (kind) {
                case REQUEST -> new Request(exchange, when, string(), string(), string(), headers(), body());
                case RESPONSE -> new Response(exchange, when, integer(), headers(), body(), number(),
                        OUTCOMES[integer()], Duration.ofNanos(number()));
                case STREAM_OPENED -> new StreamOpened(exchange, when, integer(), headers());
                case FRAME -> new Frame(exchange, when, integer(), new SseEvent(string(), string(), string()));
                case STREAM_CLOSED -> new StreamClosed(exchange, when, integer(), number(), OUTCOMES[integer()],
                        Duration.ofNanos(number()), headers());
                case REFUSED -> new Refused(exchange, when, integer(), string());
                case FLAGGED -> new Flagged(exchange, when, PROBLEMS[integer()], string());
                default -> throw new IllegalStateException("no event of kind " + kind);
            };
        }

        private List<Header> headers() {
            int n = integer();
            List<Header> headers = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                headers.add(new Header(string(), string()));
            }
            return headers;
        }

        private byte[] body() {
            int n = integer();
            byte[] body = Arrays.copyOfRange(bytes, at, at + n);
            at += n;
            return body;
        }

        private String string() {
            int v = integer();
            if (v < 0) {
                return null;
            }
            int n = v >>> 1;
            if ((v & 1) == 0) {
                String s = new String(bytes, at, n, StandardCharsets.US_ASCII);
                at += n;
                return s;
            }
            char[] chars = new char[n];
            for (int i = 0; i < n; i++) {
                chars[i] = (char) ((bytes[at] & 0xff) << 8 | bytes[at + 1] & 0xff);
                at += 2;
            }
            return new String(chars);
        }

        private int integer() {
            int v = (bytes[at] & 0xff) << 24 | (bytes[at + 1] & 0xff) << 16 | (bytes[at + 2] & 0xff) << 8 | bytes[at + 3] & 0xff;
            at += 4;
            return v;
        }

        private long number() {
            return (long) integer() << 32 | integer() & 0xffffffffL;
        }
    }
}
