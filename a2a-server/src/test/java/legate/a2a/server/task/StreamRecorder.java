package legate.a2a.server.task;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import legate.a2a.model.A2aException;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskState;

/** Reads a subscription to its end (bounded in time) and offers what a client would look at. */
final class StreamRecorder {
    final List<StreamResponse> events = new ArrayList<>();
    A2aException failure;

    static StreamRecorder drain(Subscription s) throws InterruptedException {
        StreamRecorder r = new StreamRecorder();
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            Subscription.Signal signal = s.poll(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            assertThat(signal).as("the stream ended within 10 s").isNotNull();
            switch (signal) {
                case Subscription.Signal.Event e -> r.events.add(e.event());
                case Subscription.Signal.End end -> {
                    return r;
                }
                case Subscription.Signal.Failure f -> {
                    r.failure = f.error();
                    return r;
                }
            }
        }
    }

    /** The kind of each event, with its state where it has one: "task:SUBMITTED", "status:WORKING", "artifact". */
    List<String> kinds() {
        List<String> out = new ArrayList<>();
        for (StreamResponse e : events) {
            out.add(switch (e.getPayloadCase()) {
                case TASK -> "task:" + short_(e.getTask().getStatus().getState());
                case MESSAGE -> "message";
                case STATUS_UPDATE -> "status:" + short_(e.getStatusUpdate().getStatus().getState());
                case ARTIFACT_UPDATE -> "artifact";
                case PAYLOAD_NOT_SET -> "empty";
            });
        }
        return out;
    }

    private static String short_(TaskState s) {
        return s.name().replace("TASK_STATE_", "");
    }
}
