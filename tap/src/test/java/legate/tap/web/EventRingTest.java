package legate.tap.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import legate.tap.show.EncodedLine;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.wire.sse.SseEvent;
import org.junit.jupiter.api.Test;

/** The history's ring: what goes in reads back as the line the log writes, and it stays in its bounds. */
class EventRingTest {
    private static final Instant T0 = Instant.parse("2026-12-02T10:00:00Z");

    // DEFECT: the ring wraps and grows; a line that straddles its end, or was moved by a growth,
    // must read back byte for byte (an export or a view would show a broken line otherwise).
    @Test
    void linesReadBackWholeAcrossWrapsAndGrowth() {
        EventRing ring = new EventRing(1_000, 3L << 20);
        List<ExchangeEvent> added = new ArrayList<>();
        for (int i = 1; i <= 4_000; i++) {
            ExchangeEvent e = switch (i % 3) {
                case 0 -> new Request(i, T0, "POST", "/", "HTTP/1.1", List.of(), body(i));
                case 1 -> new Response(i, T0, 200, List.of(), body(i), body(i).length, Outcome.COMPLETE, Duration.ofMillis(1));
                default -> new Frame(i, T0, 1, new SseEvent(null, "{\"ü\":\"" + "z".repeat(i % 700) + "\"}", null));
            };
            ring.add(e);
            added.add(e);
        }
        assertThat(ring.size()).as("bounded by events").isEqualTo(1_000);
        assertThat(ring.dropped()).isEqualTo(3_000);
        assertThat(ring.bytes()).isLessThanOrEqualTo(3L << 20);
        List<SessionHistory.Entry> kept = ring.all();
        for (int i = 0; i < kept.size(); i++) {
            ExchangeEvent e = added.get(3_000 + i);
            assertThat(new String(kept.get(i).line(), StandardCharsets.UTF_8)).as("event %d", e.exchange())
                    .isEqualTo(new String(EncodedLine.of(e).bytes(), StandardCharsets.UTF_8));
        }
        assertThat(ring.of(Set.of(3_999L, 12L)).stream().map(SessionHistory.Entry::exchange)).containsExactly(3_999L);
    }

    @Test
    void theOldestGoWhenTheBytesRunOutAndABodyLargerThanTheWholeIsNotKept() {
        EventRing ring = new EventRing(1_000, 64 * 1024);
        for (int i = 1; i <= 100; i++) {
            ring.add(new Request(i, T0, "POST", "/", "HTTP/1.1", List.of(), new byte[4_000]));
        }
        assertThat(ring.bytes()).isLessThanOrEqualTo(64 * 1024);
        assertThat(ring.size()).isBetween(10, 16);
        ring.add(new Request(101, T0, "POST", "/huge", "HTTP/1.1", List.of(), new byte[100_000]));
        SessionHistory.Entry last = ring.all().getLast();
        assertThat(last.exchange()).isEqualTo(101);
        assertThat(new String(last.line(), StandardCharsets.UTF_8)).contains("\"target\":\"/huge\"").doesNotContain("body");
    }

    private static byte[] body(int i) {
        return ("{\"n\":" + i + ",\"pad\":\"" + "p".repeat(i % 900) + "\"}").getBytes(StandardCharsets.UTF_8);
    }
}
