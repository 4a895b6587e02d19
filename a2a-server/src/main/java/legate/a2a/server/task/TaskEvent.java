package legate.a2a.server.task;

import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;

/**
 * One entry of a task's event log: the event as it was delivered to the task's streams, its
 * sequence number (the SSE {@code id:} of the frame that carries it, the same on every stream),
 * and the task as it stood after it.
 *
 * @param seq 1 for a task's first event, then one more for each event, across all its turns
 * @param event a Task, a status update or an artifact update (a Message answer has no task and no log)
 * @param task the task after this event: what GetTask answers and a subscription's snapshot shows
 * @param owner the principal the task belongs to ({@code Principal.owner()}: "" for the anonymous
 *              caller); a store records it with the task's first event, and it never changes
 */
public record TaskEvent(long seq, StreamResponse event, Task task, String owner) {
    public TaskEvent {
        if (owner == null) {
            throw new IllegalArgumentException("owner is \"\" for the anonymous caller, never null");
        }
        if (seq < 1) {
            throw new IllegalArgumentException("sequence numbers start at 1, got " + seq);
        }
        if (event.hasMessage() || event.getPayloadCase() == StreamResponse.PayloadCase.PAYLOAD_NOT_SET) {
            throw new IllegalArgumentException("only task events are logged, got " + event.getPayloadCase());
        }
    }

    /** An event of a task the anonymous caller owns. */
    public TaskEvent(long seq, StreamResponse event, Task task) {
        this(seq, event, task, "");
    }

    public String taskId() {
        return task.getId();
    }
}
