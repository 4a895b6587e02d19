package legate.a2a.server.task;

import legate.testsupport.StreamRecorder;

/** A subscriber that hands a subscription's signals to a {@link StreamRecorder}, as a stream response would write them. */
final class RecordingSubscriber {
    private RecordingSubscriber() {
    }

    /** Records what {@code subscription} delivers from now on (signals it already holds first). */
    static StreamRecorder record(Subscription subscription) {
        StreamRecorder recorder = new StreamRecorder();
        subscription.deliverTo(signal -> {
            switch (signal) {
                case Subscription.Signal.Event e -> recorder.onEvent(e.event());
                case Subscription.Signal.End end -> recorder.onEnd();
                case Subscription.Signal.Failure f -> recorder.onFailure(f.error());
            }
        });
        return recorder;
    }
}
