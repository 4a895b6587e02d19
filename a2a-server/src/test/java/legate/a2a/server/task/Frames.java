package legate.a2a.server.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import lf.a2a.v1.StreamResponse;

/** What a subscription carries, as "seq kind:STATE" for each event, the way its SSE frames would show it. */
final class Frames {
    private Frames() {
    }

    /**
     * The next events until the stream ends or {@code atMost} came; a stream that neither ends nor
     * sends for 5 s fails the test.
     */
    static List<String> of(Subscription s, int atMost) throws InterruptedException {
        List<String> out = new ArrayList<>();
        while (out.size() < atMost) {
            Subscription.Signal signal = s.poll(Duration.ofSeconds(5));
            assertThat(signal).as("a signal within 5 s after " + out).isNotNull();
            switch (signal) {
                case Subscription.Signal.Event e -> out.add(e.seq() + " " + kind(e.event()));
                case Subscription.Signal.End end -> {
                    return out;
                }
                case Subscription.Signal.Failure f -> throw f.error();
            }
        }
        return out;
    }

    /** Every event up to the end of the stream, which must come. */
    static List<String> toTheEnd(Subscription s) throws InterruptedException {
        List<String> out = of(s, 100);
        assertThat(out).as("the stream ended").hasSizeLessThan(100);
        return out;
    }

    static String kind(StreamResponse e) {
        if (e.hasArtifactUpdate()) {
            return "artifact";
        }
        return e.hasTask() ? "task:" + e.getTask().getStatus().getState().name().replace("TASK_STATE_", "")
                : "status:" + e.getStatusUpdate().getStatus().getState().name().replace("TASK_STATE_", "");
    }
}
