package legate.wire.sse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SSE parsing rules of the HTML Living Standard §9.2.6, one edge case per test. */
class SseParserTest {

    private static List<SseEvent> parse(String stream) throws IOException {
        List<SseEvent> events = new ArrayList<>();
        new SseParser(1024).parse(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)), e -> {
            events.add(e);
            return true;
        });
        return events;
    }

    @Test
    void linesMayEndWithLfCrOrCrlf() throws IOException {
        assertThat(parse("data: a\n\ndata: b\r\rdata: c\r\n\r\n"))
                .extracting(SseEvent::data).containsExactly("a", "b", "c");
    }

    @Test
    void commentLinesAreIgnored() throws IOException {
        assertThat(parse(": keep-alive\n\ndata: x\n: inside\n\n"))
                .extracting(SseEvent::data).containsExactly("x");
    }

    @Test
    void theSpaceAfterTheColonIsOptionalAndOnlyOneIsDropped() throws IOException {
        assertThat(parse("data:x\n\ndata:  y\n\n")).extracting(SseEvent::data).containsExactly("x", " y");
    }

    @Test
    void severalDataLinesJoinWithLineFeeds() throws IOException {
        assertThat(parse("data: {\"a\":\ndata: 1}\n\n")).extracting(SseEvent::data).containsExactly("{\"a\":\n1}");
    }

    @Test
    void eventNameAndIdAreReported() throws IOException {
        SseEvent e = parse("event: error\nid: 7\ndata: boom\n\n").get(0);
        assertThat(e.event()).isEqualTo("error");
        assertThat(e.id()).isEqualTo("7");
        // the id persists to later events until changed (last event id)
        assertThat(parse("id: 7\ndata: a\n\ndata: b\n\n")).extracting(SseEvent::id).containsExactly("7", "7");
    }

    @Test
    void anUnnamedEventIsAMessage() throws IOException {
        assertThat(parse("data: x\n\n").get(0).event()).isEqualTo("message");
    }

    @Test
    void anEventWithoutDataIsNotDispatched() throws IOException {
        assertThat(parse("event: ping\n\ndata: x\n\n")).extracting(SseEvent::data).containsExactly("x");
    }

    @Test
    void anEventCutByTheEndOfTheStreamIsDiscarded() throws IOException {
        // A stream that stops mid-event must not hand a half-received JSON document to the caller.
        assertThat(parse("data: whole\n\ndata: {\"half\":")).extracting(SseEvent::data).containsExactly("whole");
    }

    @Test
    void aFieldWithoutColonHasAnEmptyValue() throws IOException {
        assertThat(parse("data\n\n")).extracting(SseEvent::data).containsExactly("");
    }

    @Test
    void utf8SplitAcrossReadsSurvives() throws IOException {
        byte[] bytes = "data: héllo…\n\n".getBytes(StandardCharsets.UTF_8);
        InputStream oneByteAtATime = new InputStream() {
            int i;

            @Override
            public int read() {
                return i < bytes.length ? bytes[i++] & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (i >= bytes.length) {
                    return -1;
                }
                b[off] = bytes[i++];
                return 1;
            }
        };
        List<String> got = new ArrayList<>();
        new SseParser(1024).parse(oneByteAtATime, e -> got.add(e.data()));
        assertThat(got).containsExactly("héllo…");
    }

    @Test
    void aLineLongerThanTheLimitFailsInsteadOfExhaustingMemory() {
        String huge = "data: " + "x".repeat(5000) + "\n\n";
        assertThatThrownBy(() -> new SseParser(1024).parse(
                new ByteArrayInputStream(huge.getBytes(StandardCharsets.UTF_8)), e -> true))
                .isInstanceOf(IOException.class).hasMessageContaining("longer than 1024");
    }

    @Test
    void theListenerCanStopReading() throws IOException {
        List<String> got = new ArrayList<>();
        new SseParser(1024).parse(new ByteArrayInputStream("data: 1\n\ndata: 2\n\n".getBytes(StandardCharsets.UTF_8)),
                e -> {
                    got.add(e.data());
                    return false;
                });
        assertThat(got).containsExactly("1");
    }

    @Test
    void whatTheFramesSayTheParserReadsBack() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(SseFrames.comment("hello"));
        out.write(SseFrames.data("{\"a\":1}"));
        out.write(SseFrames.event("error\r\nevent: injected", "line1\nline2\r\nline3"));
        List<SseEvent> events = parse(out.toString(StandardCharsets.UTF_8));
        assertThat(events).extracting(SseEvent::data).containsExactly("{\"a\":1}", "line1\nline2\nline3");
        // a CR/LF in an event name cannot start a second field
        assertThat(events.get(1).event()).isEqualTo("errorevent: injected");
    }
}
