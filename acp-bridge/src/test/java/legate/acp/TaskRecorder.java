package legate.acp;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.task.Subscription;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskState;

/**
 * Reads a task stream on its own thread and offers what a client looks at: the states in order,
 * the texts the agent said, the artifacts. Waits are bounded; nothing sleeps.
 */
public final class TaskRecorder {
    private final LinkedBlockingQueue<Subscription.Signal> signals = new LinkedBlockingQueue<>();
    private final List<StreamResponse> events = new ArrayList<>();
    private boolean ended;

    private TaskRecorder(Subscription s) {
        Thread.ofVirtual().start(() -> {
            while (true) {
                try {
                    Subscription.Signal signal = s.poll(Duration.ofSeconds(60));
                    if (signal == null) {
                        return;
                    }
                    signals.add(signal);
                    if (!(signal instanceof Subscription.Signal.Event)) {
                        return;
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    public static TaskRecorder of(Subscription s) {
        return new TaskRecorder(s);
    }

    /** Waits (at most 30 s) for an event whose text contains {@code text}; returns this recorder. */
    public synchronized TaskRecorder awaitSaid(String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (said().stream().noneMatch(s -> s.contains(text))) {
            assertThat(ended).as("the stream ended before the agent said \"%s\"; saw %s", text, said()).isFalse();
            take(deadline);
        }
        return this;
    }

    /** Waits (at most 30 s) for the end of the stream; returns this recorder. */
    public synchronized TaskRecorder awaitEnd() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!ended) {
            take(deadline);
        }
        return this;
    }

    private void take(long deadline) throws InterruptedException {
        Subscription.Signal s = signals.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        assertThat(s).as("a stream event within 30 s; so far %s", kinds()).isNotNull();
        switch (s) {
            case Subscription.Signal.Event e -> events.add(e.event());
            case Subscription.Signal.End e -> ended = true;
            case Subscription.Signal.Failure f -> throw new AssertionError("the stream failed: " + f.error().getMessage());
        }
    }

    /** "task:SUBMITTED", "status:WORKING", "artifact", … */
    public synchronized List<String> kinds() {
        List<String> out = new ArrayList<>();
        for (StreamResponse e : events) {
            out.add(switch (e.getPayloadCase()) {
                case TASK -> "task:" + shortName(e.getTask().getStatus().getState());
                case MESSAGE -> "message";
                case STATUS_UPDATE -> "status:" + shortName(e.getStatusUpdate().getStatus().getState());
                case ARTIFACT_UPDATE -> "artifact";
                case PAYLOAD_NOT_SET -> "empty";
            });
        }
        return out;
    }

    /** The distinct states after the opening task, in order of first appearance. */
    public synchronized List<TaskState> states() {
        List<TaskState> out = new ArrayList<>();
        for (StreamResponse e : events) {
            if (e.hasStatusUpdate()) {
                TaskState s = e.getStatusUpdate().getStatus().getState();
                if (out.isEmpty() || out.get(out.size() - 1) != s) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    public synchronized TaskState finalState() {
        List<TaskState> s = states();
        return s.isEmpty() ? null : s.get(s.size() - 1);
    }

    /** The text of every status message, in order. */
    public synchronized List<String> said() {
        List<String> out = new ArrayList<>();
        for (StreamResponse e : events) {
            if (e.hasStatusUpdate() && e.getStatusUpdate().getStatus().hasMessage()) {
                out.add(text(e.getStatusUpdate().getStatus().getMessage()));
            }
        }
        return out;
    }

    /** Status messages (with their metadata), in order. */
    public synchronized List<Message> statusMessages() {
        List<Message> out = new ArrayList<>();
        for (StreamResponse e : events) {
            if (e.hasStatusUpdate() && e.getStatusUpdate().getStatus().hasMessage()) {
                out.add(e.getStatusUpdate().getStatus().getMessage());
            }
        }
        return out;
    }

    /** The final status message's text, or "" when it has none. */
    public synchronized String lastSaid() {
        for (int i = events.size() - 1; i >= 0; i--) {
            StreamResponse e = events.get(i);
            if (e.hasStatusUpdate()) {
                return e.getStatusUpdate().getStatus().hasMessage() ? text(e.getStatusUpdate().getStatus().getMessage()) : "";
            }
        }
        return "";
    }

    public synchronized List<Artifact> artifacts() {
        List<Artifact> out = new ArrayList<>();
        for (StreamResponse e : events) {
            if (e.hasArtifactUpdate()) {
                out.add(e.getArtifactUpdate().getArtifact());
            }
        }
        return out;
    }

    public synchronized String taskId() throws InterruptedException {
        return first().getTask().getId();
    }

    public synchronized String contextId() throws InterruptedException {
        return first().getTask().getContextId();
    }

    private StreamResponse first() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (events.isEmpty()) {
            assertThat(ended).as("the stream ended without events").isFalse();
            take(deadline);
        }
        return events.get(0);
    }

    public static String text(Message m) {
        StringBuilder sb = new StringBuilder();
        for (Part p : m.getPartsList()) {
            if (p.hasText()) {
                sb.append(p.getText());
            }
        }
        return sb.toString();
    }

    private static String shortName(TaskState s) {
        return s.name().replace("TASK_STATE_", "");
    }
}
