package legate.tap.show;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import legate.wire.json.WireJson;
import org.junit.jupiter.api.Test;

/** The streaming encoding of an event's line, which the log, the history and every page share. */
class EncodedLineTest {
    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00.123Z");
    private static final List<ExchangeEvent> EVENTS = SampleEvents.ALL;

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

    // Rule: encoded once: the next listener asking for the same event gets the same line.
    @Test
    void theSameEventIsEncodedOnce() {
        ExchangeEvent e = EVENTS.getFirst();
        assertThat(EncodedLine.of(e)).isSameAs(EncodedLine.of(e));
    }
}
