package legate.tap.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import legate.tap.show.EventLine;
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
import legate.wire.json.WireJson;
import legate.wire.sse.SseEvent;
import org.junit.jupiter.api.Test;

/** A session exported and read back, as HAR 1.2 and as the tap's JSON Lines, for --replay and the page's import. */
class SessionFileTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00.123Z");
    private static final List<Header> JSON = List.of(new Header("Content-Type", "application/json"),
            new Header("A2A-Version", "1.0"));
    private static final List<Header> GRPC = List.of(new Header("content-type", "application/grpc"),
            new Header("a2a-version", "1.0"));
    private static final List<ExchangeEvent> SESSION = List.of(
            new Request(1, T0, "POST", "/", "HTTP/1.1", JSON, bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\"}")),
            new Response(1, T0.plusMillis(4), 200, JSON, bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"), 36,
                    Outcome.COMPLETE, Duration.ofMillis(4)),
            new Request(2, T0.plusMillis(10), "POST", "/rpc?x=1", "HTTP/1.1", JSON, bytes("{\"method\":\"SendStreamingMessage\"}")),
            new StreamOpened(2, T0.plusMillis(12), 200, List.of(new Header("Content-Type", "text/event-stream"))),
            new Frame(2, T0.plusMillis(13), 1, new SseEvent(null, "{\"a\":1}", "1")),
            new Frame(2, T0.plusMillis(40), 2, new SseEvent("error", "{\"b\":\n2}", null)),
            new Flagged(2, T0.plusMillis(40), Problem.FIRST_EVENT_NOT_TASK_OR_MESSAGE, "frame 1 is a a"),
            new StreamClosed(2, T0.plusMillis(41), 2, 50, Outcome.COMPLETE, Duration.ofMillis(31), List.of()),
            new Request(3, T0.plusMillis(50), "GET", "/.well-known/agent-card.json", "HTTP/1.1", List.of(), new byte[0]),
            new Refused(3, T0.plusMillis(51), 502, "the agent is not reachable"),
            // A gRPC server stream: HTTP/2, its messages as frames without ids, its status in trailers.
            new Request(4, T0.plusMillis(60), "POST", "/lf.a2a.v1.A2AService/SubscribeToTask", "HTTP/2", GRPC,
                    bytes("{\"id\":\"t-1\"}")),
            new StreamOpened(4, T0.plusMillis(61), 200, List.of(new Header("content-type", "application/grpc"))),
            new Frame(4, T0.plusMillis(62), 1, new SseEvent("message", "{\"task\":{\"id\":\"t-1\"}}", null)),
            new StreamClosed(4, T0.plusMillis(70), 1, 40, Outcome.COMPLETE, Duration.ofMillis(10),
                    List.of(new Header("grpc-status", "0"))));

    // Rule: the tap's JSON Lines read back into the very events that were written.
    @Test
    void jsonLinesReadBackIntoTheSameEvents() {
        StringBuilder file = new StringBuilder();
        for (ExchangeEvent e : SESSION) {
            file.append(WireJson.write(EventLine.of(e))).append('\n');
        }
        assertThat(lines(SessionFile.read(bytes(file.toString())))).isEqualTo(lines(SESSION));
    }

    // Rule: a HAR export is HAR 1.2 and reads back into the same exchanges: requests, bodies, each
    // frame with its arrival time, the flags and the tap's refusals, a gRPC stream and its status.
    @Test
    void aHarExportReadsBackIntoTheSameExchanges() {
        String har = WireJson.write(HarFile.write(SESSION, URI.create("http://127.0.0.1:41241")));
        assertThat(har).contains("\"version\":\"1.2\"").contains("\"url\":\"http://127.0.0.1:41241/rpc?x=1\"");
        // A gRPC call's entry: HTTP/2, its messages as ProtoJSON lines (no SSE text), its status in _trailers.
        assertThat(har).contains("\"httpVersion\":\"HTTP/2\"").contains("\"text\":\"{\\\"task\\\":{\\\"id\\\":\\\"t-1\\\"}}\\n\"")
                .contains("\"_trailers\":[{\"name\":\"grpc-status\",\"value\":\"0\"}]").contains("\"comment\":\"a gRPC call");
        List<ExchangeEvent> back = SessionFile.read(bytes(har));
        assertThat(lines(back)).containsExactlyInAnyOrderElementsOf(lines(SESSION));
    }

    // Rule: a HAR from elsewhere (no _frames) still shows its stream, split into frames from its text.
    @Test
    void aForeignHarStreamIsSplitIntoFrames() {
        String har = "{\"log\":{\"version\":\"1.2\",\"entries\":[{\"startedDateTime\":\"2026-12-01T10:00:00.000+01:00\",\"time\":7,"
                + "\"request\":{\"method\":\"POST\",\"url\":\"http://agent/\",\"headers\":[]},"
                + "\"response\":{\"status\":200,\"headers\":[],\"content\":{\"mimeType\":\"text/event-stream\","
                + "\"text\":\"data: {\\\"x\\\":1}\\n\\ndata: {\\\"x\\\":2}\\n\\n\"}}}]}}";
        List<ExchangeEvent> events = SessionFile.read(bytes(har));
        assertThat(events).filteredOn(Frame.class::isInstance).hasSize(2);
        assertThat(events.getFirst().at()).isEqualTo(Instant.parse("2026-12-01T09:00:00Z"));
    }

    // Rule: one mask for every view: a browser's HAR shows its credentials as the tap would, a masked one unchanged.
    @Test
    void aForeignHarsCredentialsAreShownMasked() {
        String har = "{\"log\":{\"version\":\"1.2\",\"entries\":[{\"startedDateTime\":\"2026-12-01T10:00:00.000Z\",\"time\":7,"
                + "\"request\":{\"method\":\"POST\",\"url\":\"http://agent/\",\"headers\":["
                + "{\"name\":\"Authorization\",\"value\":\"Bearer eyJhbGciOiJFUzI1NiJ9.secret-part.WXYZ\"},"
                + "{\"name\":\"Cookie\",\"value\":\"session=…SESS\"}]},"
                + "\"response\":{\"status\":200,\"headers\":[],\"content\":{\"mimeType\":\"application/json\",\"text\":\"{}\"}}}]}}";
        Request request = (Request) SessionFile.read(bytes(har)).getFirst();
        assertThat(request.headers()).containsExactly(new Header("Authorization", "Bearer …WXYZ"),
                new Header("Cookie", "session=…SESS"));
    }

    // Rule: a file that is neither says where it breaks, in words, and nothing is shown.
    @Test
    void aBrokenFileIsRefusedNamingTheLine() {
        assertThatThrownBy(() -> SessionFile.read(bytes("{\"at\":\"2026-12-01T10:00:00Z\",\"exchange\":1,\"event\":\"request\","
                + "\"method\":\"GET\",\"target\":\"/\"}\nnot json\n")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("line 2");
        assertThatThrownBy(() -> SessionFile.read(bytes("{\"exchange\":1,\"at\":\"2026-12-01T10:00:00Z\",\"event\":\"teleport\"}")))
                .hasMessageContaining("teleport");
        assertThatThrownBy(() -> SessionFile.read(bytes("  "))).hasMessageContaining("empty");
    }

    private static List<String> lines(List<ExchangeEvent> events) {
        return events.stream().map(e -> WireJson.write(EventLine.of(e))).toList();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
