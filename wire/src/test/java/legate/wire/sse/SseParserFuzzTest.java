package legate.wire.sse;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzzes the SSE parser with arbitrary bytes from a peer (docs/fuzzing.md). Properties: a stream
 * the parser cannot read costs an {@link IOException} (its documented failure: a line over the
 * bound), never another exception; and every event it reports, framed again by {@link SseFrames}
 * as Legate's own streams frame it, parses back to the same event, so a relay of it (the tap, the
 * MCP bridge) passes on what it read.
 */
class SseParserFuzzTest {
    private static final int MAX_LINE_BYTES = 256;

    @FuzzTest(maxDuration = "60s")
    void anyStreamParsesToEventsThatSurviveReframing(byte[] stream) throws IOException {
        List<SseEvent> events = new ArrayList<>();
        try {
            new SseParser(MAX_LINE_BYTES).parse(new ByteArrayInputStream(stream), e -> events.add(e));
        } catch (IOException e) {
            assertThat(e).hasMessageContaining("longer than");
            return;
        }
        for (SseEvent event : events) {
            List<SseEvent> again = new ArrayList<>();
            // Framing adds "data: " to a line, so the second parse gets that much more room; and a
            // byte that is no UTF-8 was read as U+FFFD, three bytes when framed again (the first
            // finding of this test, docs/fuzzing.md: a property of the test, not of the parser).
            new SseParser(3 * MAX_LINE_BYTES + 16).parse(new ByteArrayInputStream(SseFrames.event(event.event(), event.data())),
                    again::add);
            assertThat(again).extracting(SseEvent::event, SseEvent::data)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(event.event(), event.data()));
        }
    }
}
