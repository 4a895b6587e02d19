package legate.tap.show;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
import org.junit.jupiter.api.Test;

/** The streaming encoding of an event's line, which the log, the history and every page share. */
class EncodedLineTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00.123Z");
    private static final List<Header> HEADERS = List.of(new Header("Content-Type", "application/json"),
            new Header("Authorization", "Bearer …WXYZ"), new Header("Via", "1.1 a"), new Header("Via", "1.1 b"),
            new Header("X-Odd", "tab\there \u0001 \"quoted\" ü"));
    private static final List<ExchangeEvent> EVENTS = List.of(
            new Request(1, T0, "POST", "/a?b=\"c\"", "HTTP/1.1", HEADERS,
                    bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"text\":\"ü \\\" \u007f \u2028 日本\"}")),
            new Request(2, T0, "POST", "/", "HTTP/1.1", List.of(), "raw\r\nline\u0000\t\\".getBytes(StandardCharsets.ISO_8859_1)),
            new Request(3, T0, "POST", "/", "HTTP/1.1", List.of(), new byte[] {(byte) 0xc3, 0x28, (byte) 0xff}),
            new Request(4, T0, "GET", "/.well-known/agent-card.json", "HTTP/2", List.of(), new byte[0]),
            new Request(8, T0, "POST", "/", "HTTP/1.1", List.of(), bytes("0123456789abcdefü")),
            new Request(9, T0, "POST", "/", "HTTP/1.1", List.of(), bytes("0123456789abcdef")),
            new Request(10, T0, "POST", "/", "HTTP/1.1", List.of(), new byte[] {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', (byte) 0xff}),
            new Response(1, T0.plusMillis(4), 200, HEADERS, bytes("{\"result\":{}}"), 13, Outcome.COMPLETE, Duration.ofMillis(4)),
            new Response(5, T0.plusMillis(4), 200, List.of(), bytes("{\"res"), 9000, Outcome.UPSTREAM_BROKE, Duration.ofSeconds(3)),
            new StreamOpened(6, T0, 200, List.of(new Header("Content-Type", "text/event-stream"))),
            new Frame(6, T0, 1, new SseEvent(null, "{\"a\":\n1}", "1")),
            new Frame(6, T0, 2, new SseEvent("error", "x", null)),
            new StreamClosed(6, T0, 2, 50, Outcome.CLIENT_GONE, Duration.ofMillis(31)),
            new Refused(7, T0, 502, "the agent is not reachable: \"127.0.0.1\""),
            new Flagged(6, T0, Problem.ID_MISMATCH, "request id 1, answer id \"x\""));

    // DEFECT: the log, --replay and the page's import read these lines with EventLine.read, so the
    // streaming encoder must write exactly what the tree-based EventLine writes, byte for byte:
    // escapes, non-ASCII text, a body that is not UTF-8 (base64), repeated headers joined.
    @Test
    void writesTheSameBytesAsTheEventLineTree() {
        for (ExchangeEvent e : EVENTS) {
            assertThat(new String(EncodedLine.of(e).bytes(), StandardCharsets.UTF_8)).as("%s", e)
                    .isEqualTo(WireJson.write(EventLine.of(e)));
        }
    }

    // DEFECT: "at" is formatted by the encoder's own cache of the second; it must be Instant.toString's
    // text for every fraction (none, 3, 6 or 9 digits, leading zeros) and across seconds.
    @Test
    void timesAreWrittenAsInstantWritesThem() {
        for (int nano : new int[] {0, 1, 10, 999, 1_000, 1_001, 120_000, 1_000_000, 5_000_000, 123_000_000, 123_456_000,
                123_456_789, 999_999_999}) {
            for (Instant second : new Instant[] {T0.minusNanos(T0.getNano()), Instant.EPOCH, Instant.parse("1969-12-31T23:59:59Z")}) {
                Instant at = second.plusNanos(nano);
                assertThat(EncodedLine.instant(at)).as("%s", at).isEqualTo(at.toString());
            }
        }
    }

    // DEFECT: the inspector's history keeps lines with their bodies left out and puts them in when a
    // line is read (an export, a view); what it reads must be the line the log writes, byte for byte.
    @Test
    void aDeferredLineReadsAsTheWholeLine() {
        for (ExchangeEvent e : EVENTS) {
            assertThat(new String(DeferredLine.of(e).line(), StandardCharsets.UTF_8)).as("%s", e)
                    .isEqualTo(new String(EncodedLine.of(e).bytes(), StandardCharsets.UTF_8));
        }
    }

    // Rule: encoded once: the next listener asking for the same event gets the same line.
    @Test
    void theSameEventIsEncodedOnce() {
        ExchangeEvent e = EVENTS.getFirst();
        assertThat(EncodedLine.of(e)).isSameAs(EncodedLine.of(e));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
