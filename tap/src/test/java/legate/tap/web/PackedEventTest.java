package legate.tap.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import legate.tap.show.EncodedLine;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.SampleEvents;
import legate.wire.sse.SseEvent;
import org.junit.jupiter.api.Test;

/** The history packs each event and writes its line only when read: what it reads is what the log writes. */
class PackedEventTest {
    // DEFECT: an export or a view reads the history's events back; each must be the line the log
    // writes, byte for byte (bodies that are not UTF-8, non-ASCII text, repeated headers, cut bodies).
    @Test
    void anUnpackedEventWritesTheLineTheLogWrites() {
        PackedEvent.Packer packer = new PackedEvent.Packer();
        for (ExchangeEvent e : SampleEvents.ALL) {
            packer.pack(e, true);
            ExchangeEvent back = PackedEvent.unpack(Arrays.copyOf(packer.bytes(), packer.size()));
            assertThat(new String(EncodedLine.of(back).bytes(), StandardCharsets.UTF_8)).as("%s", e)
                    .isEqualTo(new String(EncodedLine.of(e).bytes(), StandardCharsets.UTF_8));
        }
    }

    // Any String reads back as it was, not only well-formed text: a frame's data is the tap's to show, not to mend.
    @Test
    void stringsReadBackExactlyEvenWithALoneSurrogate() {
        String odd = "lone \ud800 then \udc00, 日本, ü, \u0000";
        Frame f = new Frame(1, Instant.EPOCH.plusNanos(7), 2, new SseEvent("ev\u00e9", odd, null));
        Frame back = (Frame) PackedEvent.unpack(packed(f, true));
        assertThat(back).isEqualTo(f);
    }

    @Test
    void withoutBodiesAFrameKeepsEverythingButItsData() {
        Frame f = new Frame(3, Instant.EPOCH, 1, new SseEvent("message", "x".repeat(100), "9"));
        Frame back = (Frame) PackedEvent.unpack(packed(f, false));
        assertThat(back.event()).isEqualTo(new SseEvent("message", "", "9"));
        assertThat(back.exchange()).isEqualTo(3);
    }

    private static byte[] packed(ExchangeEvent e, boolean bodies) {
        PackedEvent.Packer packer = new PackedEvent.Packer().pack(e, bodies);
        return Arrays.copyOf(packer.bytes(), packer.size());
    }
}
