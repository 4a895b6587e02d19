package legate.tap.show;

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
import legate.wire.sse.SseEvent;

/**
 * Events of every kind with what is hard to write or keep: escapes, non-ASCII text, a body that is
 * not UTF-8, repeated headers, an empty body, a cut body, a frame with no id, a gRPC stream's trailers.
 */
public final class SampleEvents {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00.123Z");
    private static final List<Header> HEADERS = List.of(new Header("Content-Type", "application/json"),
            new Header("Authorization", "Bearer …WXYZ"), new Header("Via", "1.1 a"), new Header("Via", "1.1 b"),
            new Header("X-Odd", "tab\there \u0001 \"quoted\" ü"));
    public static final List<ExchangeEvent> ALL = List.of(
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
            new Frame(6, T0, 3, new SseEvent("message", "日本 ü", "3")),
            new StreamClosed(6, T0, 2, 50, Outcome.CLIENT_GONE, Duration.ofMillis(31), List.of()),
            new StreamClosed(11, T0, 1, 70, Outcome.COMPLETE, Duration.ofMillis(12), List.of(new Header("grpc-status", "5"),
                    new Header("grpc-message", "Task%20not%20found"),
                    new Header("grpc-status-details-bin", "{\"code\":5,\"details\":[{\"@type\":\"x\"}]}"))),
            new Refused(7, T0, 502, "the agent is not reachable: \"127.0.0.1\""),
            new Flagged(6, T0, Problem.ID_MISMATCH, "request id 1, answer id \"x\""));

    private SampleEvents() {
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
