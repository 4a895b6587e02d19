package legate.a2a.server;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskArtifactUpdateEvent;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import lf.a2a.v1.TaskStatusUpdateEvent;

/**
 * Where an executor publishes the events of one turn, bound to one task id and context id.
 *
 * <p>Order (A2A §3.1.2): a Task first (or exactly one Message and nothing else), then status and
 * artifact updates in the order they happen, ending with a terminal or interrupted state. The
 * server checks the order and throws {@link IllegalStateException} naming the executor at the
 * first event that breaks it; the event is not delivered to anyone.
 *
 * <p>Thread-safety: events may be published from any thread; each is applied to the stored task
 * and delivered to every subscriber before {@link #publish} returns, in publication order.
 */
public interface EventSink {

    String taskId();

    String contextId();

    void publish(StreamResponse event);

    default void task(Task task) {
        publish(StreamResponse.newBuilder().setTask(task).build());
    }

    default void message(Message message) {
        publish(StreamResponse.newBuilder().setMessage(message).build());
    }

    /** A status update; {@code message} may be null. The server stamps the time. */
    default void status(TaskState state, Message message) {
        TaskStatus.Builder status = TaskStatus.newBuilder().setState(state);
        if (message != null) {
            status.setMessage(message);
        }
        publish(StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setTaskId(taskId()).setContextId(contextId()).setStatus(status)).build());
    }

    default void artifact(Artifact artifact, boolean append, boolean lastChunk) {
        publish(StreamResponse.newBuilder().setArtifactUpdate(TaskArtifactUpdateEvent.newBuilder()
                .setTaskId(taskId()).setContextId(contextId()).setArtifact(artifact)
                .setAppend(append).setLastChunk(lastChunk)).build());
    }

    /**
     * Asks the caller a question and waits for the answer without ending this execution: the task
     * moves to INPUT_REQUIRED with {@code question} (streams close and a blocking caller is answered,
     * as for any INPUT_REQUIRED), and the caller's next message into this task continues the same
     * execution instead of starting a new one. The reply's turn begins with the Task, published by
     * the executor on {@link Reply#events()}, which is where everything goes from then on.
     *
     * <p>Empty when no reply came within {@code timeout}, when the task was canceled meanwhile (see
     * the cancel signal) or when the server is stopping. After an empty answer this sink is still the
     * turn's: a later message into the task is refused as long as the execution runs, and the
     * execution ends the task (or asks again) here.
     *
     * @throws UnsupportedOperationException when the server running this sink cannot keep an execution across a question
     */
    default Optional<Reply> awaitReply(Message question, Duration timeout) throws InterruptedException {
        throw new UnsupportedOperationException("this event sink cannot wait for a reply within a turn");
    }

    /** An agent message in this task, with a fresh id: what status updates carry to explain themselves. */
    default Message agentText(String text) {
        return Message.newBuilder()
                .setMessageId(RandomIds.next())
                .setRole(Role.ROLE_AGENT)
                .setTaskId(taskId())
                .setContextId(contextId())
                .addAllParts(List.of(Part.newBuilder().setText(text).build()))
                .build();
    }
}
