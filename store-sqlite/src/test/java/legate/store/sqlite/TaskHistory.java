package legate.store.sqlite;

import com.google.protobuf.Timestamp;
import java.time.Instant;
import legate.a2a.server.task.TaskEvent;
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
 * One task's events as its run appends them: each with the next sequence number and the task as
 * it stands after it, the way {@code TaskRun} folds them (a status message joins the history, an
 * artifact is added).
 */
final class TaskHistory {
    private Task task;
    private long seq;

    /** A new task, SUBMITTED at {@code at}; {@link #next()} is its first event, the Task itself. */
    TaskHistory(String taskId, String contextId, Instant at) {
        task = Task.newBuilder().setId(taskId).setContextId(contextId)
                .setStatus(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_SUBMITTED).setTimestamp(ts(at)))
                .addHistory(Message.newBuilder().setMessageId("m-" + taskId).setRole(Role.ROLE_USER)
                        .addParts(Part.newBuilder().setText("Grüße aus " + taskId + " ✓")))
                .build();
    }

    /** The event that created the task. */
    TaskEvent created() {
        return new TaskEvent(++seq, StreamResponse.newBuilder().setTask(task).build(), task);
    }

    /** A status update to {@code state} at {@code at}, saying {@code text}. */
    TaskEvent status(TaskState state, Instant at, String text) {
        Message said = Message.newBuilder().setMessageId("s-" + task.getId() + "-" + (seq + 1)).setRole(Role.ROLE_AGENT)
                .addParts(Part.newBuilder().setText(text)).build();
        TaskStatus status = TaskStatus.newBuilder().setState(state).setTimestamp(ts(at)).setMessage(said).build();
        task = task.toBuilder().setStatus(status).addHistory(said).build();
        StreamResponse e = StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setTaskId(task.getId()).setContextId(task.getContextId()).setStatus(status)).build();
        return new TaskEvent(++seq, e, task);
    }

    /** An artifact named {@code name} with one text part. */
    TaskEvent artifact(String name, String text) {
        return artifact(Artifact.newBuilder().setArtifactId(name).addParts(Part.newBuilder().setText(text)).build());
    }

    /** The artifact {@code a}, added to the task. */
    TaskEvent artifact(Artifact a) {
        task = task.toBuilder().addArtifacts(a).build();
        StreamResponse e = StreamResponse.newBuilder().setArtifactUpdate(TaskArtifactUpdateEvent.newBuilder()
                .setTaskId(task.getId()).setContextId(task.getContextId()).setArtifact(a)).build();
        return new TaskEvent(++seq, e, task);
    }

    Task task() {
        return task;
    }

    long seq() {
        return seq;
    }

    static Timestamp ts(Instant at) {
        return Timestamp.newBuilder().setSeconds(at.getEpochSecond()).setNanos(at.getNano()).build();
    }
}
