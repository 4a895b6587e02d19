package legate.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskState;

/**
 * The events of one A2A stream (SendStreamingMessage, SubscribeToTask) in arrival order, and what
 * a client looks at in them: {@link #kinds()}, {@link #states()}, {@link #said()},
 * {@link #artifacts()}.
 *
 * <p>Any thread may feed it, and feeding never blocks: a client passes {@code recorder::onEvent}
 * as its stream listener; a server subscription is fed by a few lines in the server's tests
 * ({@link #onEvent}, {@link #onEnd}, {@link #onFailure}). Every wait is bounded (30 s unless told).
 *
 * <p>Nothing left over: each method that hands events to the test ({@link #next()}, the
 * {@code await…} methods, the lists) marks them seen, and {@link #assertExhausted()} fails on an
 * event the test never looked at, or one that came after the end of the stream.
 */
public final class StreamRecorder {
    public static final Duration WAIT = Duration.ofSeconds(30);

    private final Duration wait;
    // All guarded by this.
    private final List<StreamResponse> events = new ArrayList<>();
    private int seen;
    private int endedAt = -1;
    private Throwable failure;

    public StreamRecorder() {
        this(WAIT);
    }

    /** @param wait the bound on every wait of this recorder */
    public StreamRecorder(Duration wait) {
        this.wait = wait;
    }

    // ------------------------------------------------------------------ fed by the stream

    /** One event; returns true so that {@code recorder::onEvent} is a client listener that keeps reading. */
    public synchronized boolean onEvent(StreamResponse event) {
        events.add(event);
        notifyAll();
        return true;
    }

    /** The stream is over. */
    public synchronized void onEnd() {
        if (endedAt < 0) {
            endedAt = events.size();
        }
        notifyAll();
    }

    /** The stream failed instead of ending. */
    public synchronized void onFailure(Throwable error) {
        failure = error;
        onEnd();
    }

    // ------------------------------------------------------------------ waiting

    /** Waits for the end of the stream; a stream that failed fails the test with its error. */
    public synchronized StreamRecorder awaitEnd() {
        long deadline = deadline();
        while (endedAt < 0) {
            waitUntil(deadline, "the end of the stream");
        }
        if (failure != null) {
            throw new AssertionError("the stream failed after " + kindsOf(events) + ": " + failure.getMessage(), failure);
        }
        return this;
    }

    /** Waits for the stream to fail and returns its error. */
    public synchronized Throwable awaitFailure() {
        long deadline = deadline();
        while (endedAt < 0) {
            waitUntil(deadline, "the stream's failure");
        }
        if (failure == null) {
            throw new AssertionError("the stream ended without failing, after " + kindsOf(events));
        }
        return failure;
    }

    /** The next event not yet seen, waiting for it. */
    public synchronized StreamResponse next() {
        long deadline = deadline();
        while (seen == events.size()) {
            if (endedAt >= 0) {
                throw new AssertionError("the stream ended; no event after " + kindsOf(events));
            }
            waitUntil(deadline, "a next event");
        }
        return events.get(seen++);
    }

    /** Waits until the stream has carried an event that matches; marks it and those before it seen. */
    public synchronized StreamResponse awaitEvent(String what, Predicate<StreamResponse> match) {
        long deadline = deadline();
        int checked = 0;
        while (true) {
            for (; checked < events.size(); checked++) {
                if (match.test(events.get(checked))) {
                    seen = Math.max(seen, checked + 1);
                    return events.get(checked);
                }
            }
            if (endedAt >= 0) {
                throw new AssertionError("the stream ended before " + what + "; it carried " + kindsOf(events)
                        + " saying " + saidIn(events));
            }
            waitUntil(deadline, what);
        }
    }

    /** Waits until a status message contains {@code text}. */
    public StreamRecorder awaitSaid(String text) {
        awaitEvent("a status message saying \"" + text + "\"", e -> e.hasStatusUpdate()
                && e.getStatusUpdate().getStatus().hasMessage() && text(e.getStatusUpdate().getStatus().getMessage()).contains(text));
        return this;
    }

    /** Waits until the task or a status update is in {@code state}. */
    public StreamRecorder awaitState(TaskState state) {
        awaitEvent("the state " + state, e -> state(e) == state);
        return this;
    }

    /** Fails on an event the test has not seen, or one that came after the end of the stream. */
    public synchronized void assertExhausted() {
        if (endedAt >= 0 && endedAt < events.size()) {
            throw new AssertionError("events after the end of the stream: " + kindsOf(events.subList(endedAt, events.size())));
        }
        if (seen < events.size()) {
            throw new AssertionError("events the test never looked at: " + kindsOf(events.subList(seen, events.size())));
        }
    }

    // ------------------------------------------------------------------ what a client looks at

    /** Every event so far, in order. */
    public synchronized List<StreamResponse> events() {
        seen = events.size();
        return List.copyOf(events);
    }

    /** "task:SUBMITTED", "message", "status:WORKING", "artifact:text-stats", … */
    public synchronized List<String> kinds() {
        return kindsOf(events());
    }

    /** The states of the status updates, a repeated state once: the task's path after its snapshot. */
    public synchronized List<TaskState> states() {
        List<TaskState> out = new ArrayList<>();
        for (StreamResponse e : events()) {
            if (e.hasStatusUpdate()) {
                TaskState s = e.getStatusUpdate().getStatus().getState();
                if (out.isEmpty() || out.get(out.size() - 1) != s) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    /** The last state of {@link #states()}, or null when no status update came. */
    public synchronized TaskState finalState() {
        List<TaskState> s = states();
        return s.isEmpty() ? null : s.get(s.size() - 1);
    }

    /** The text of every status message, in order. */
    public synchronized List<String> said() {
        return saidIn(events());
    }

    /** The status messages themselves, metadata included. */
    public synchronized List<Message> statusMessages() {
        List<Message> out = new ArrayList<>();
        for (StreamResponse e : events()) {
            if (e.hasStatusUpdate() && e.getStatusUpdate().getStatus().hasMessage()) {
                out.add(e.getStatusUpdate().getStatus().getMessage());
            }
        }
        return out;
    }

    /** The text of the last status update's message, or "" when it has none. */
    public synchronized String lastSaid() {
        List<StreamResponse> all = events();
        for (int i = all.size() - 1; i >= 0; i--) {
            if (all.get(i).hasStatusUpdate()) {
                return all.get(i).getStatusUpdate().getStatus().hasMessage()
                        ? text(all.get(i).getStatusUpdate().getStatus().getMessage()) : "";
            }
        }
        return "";
    }

    /** The artifact of every artifact update, in order. */
    public synchronized List<Artifact> artifacts() {
        return events().stream().filter(StreamResponse::hasArtifactUpdate).map(e -> e.getArtifactUpdate().getArtifact()).toList();
    }

    /** The task id each event names. */
    public synchronized List<String> taskIds() {
        return events().stream().map(e -> switch (e.getPayloadCase()) {
            case TASK -> e.getTask().getId();
            case STATUS_UPDATE -> e.getStatusUpdate().getTaskId();
            case ARTIFACT_UPDATE -> e.getArtifactUpdate().getTaskId();
            case MESSAGE -> e.getMessage().getTaskId();
            case PAYLOAD_NOT_SET -> "";
        }).toList();
    }

    /** The id of the task the stream opened with, waiting for it. */
    public synchronized String taskId() {
        return openingTask().getTask().getId();
    }

    /** The context of the task the stream opened with, waiting for it. */
    public synchronized String contextId() {
        return openingTask().getTask().getContextId();
    }

    private StreamResponse openingTask() {
        long deadline = deadline();
        while (events.isEmpty()) {
            if (endedAt >= 0) {
                throw new AssertionError("the stream ended without an event" + (failure == null ? "" : ": " + failure.getMessage()));
            }
            waitUntil(deadline, "the stream's first event");
        }
        StreamResponse first = events.get(0);
        if (!first.hasTask()) {
            throw new AssertionError("the stream opened with " + kind(first) + ", not a Task");
        }
        seen = Math.max(seen, 1);
        return first;
    }

    // ------------------------------------------------------------------ naming

    /** The kind of an event, with its state or its artifact id: "task:SUBMITTED", "artifact:answer". */
    public static String kind(StreamResponse e) {
        return switch (e.getPayloadCase()) {
            case TASK -> "task:" + shortName(e.getTask().getStatus().getState());
            case MESSAGE -> "message";
            case STATUS_UPDATE -> "status:" + shortName(e.getStatusUpdate().getStatus().getState());
            case ARTIFACT_UPDATE -> "artifact:" + e.getArtifactUpdate().getArtifact().getArtifactId();
            case PAYLOAD_NOT_SET -> "empty";
        };
    }

    /** The text parts of a message, joined. */
    public static String text(Message m) {
        StringBuilder sb = new StringBuilder();
        for (Part p : m.getPartsList()) {
            if (p.hasText()) {
                sb.append(p.getText());
            }
        }
        return sb.toString();
    }

    private static TaskState state(StreamResponse e) {
        return switch (e.getPayloadCase()) {
            case TASK -> e.getTask().getStatus().getState();
            case STATUS_UPDATE -> e.getStatusUpdate().getStatus().getState();
            case MESSAGE, ARTIFACT_UPDATE, PAYLOAD_NOT_SET -> null;
        };
    }

    private static List<String> kindsOf(List<StreamResponse> list) {
        return list.stream().map(StreamRecorder::kind).toList();
    }

    private static List<String> saidIn(List<StreamResponse> list) {
        List<String> out = new ArrayList<>();
        for (StreamResponse e : list) {
            if (e.hasStatusUpdate() && e.getStatusUpdate().getStatus().hasMessage()) {
                out.add(text(e.getStatusUpdate().getStatus().getMessage()));
            }
        }
        return out;
    }

    private static String shortName(TaskState s) {
        return s.name().replace("TASK_STATE_", "");
    }

    private long deadline() {
        return System.nanoTime() + wait.toNanos();
    }

    private void waitUntil(long deadline, String what) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new AssertionError("no " + what + " within " + wait + "; the stream carried " + kindsOf(events)
                    + " saying " + saidIn(events));
        }
        try {
            wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + what, e);
        }
    }
}
