package legate.store.postgres;

import com.google.protobuf.Timestamp;
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

/** Tasks and events as a task's run would append them, for the store's tests. */
final class TestTasks {
    private TestTasks() {
    }

    static Task task(String id, String context, TaskState state, long second, int nanos) {
        return Task.newBuilder().setId(id).setContextId(context)
                .setStatus(TaskStatus.newBuilder().setState(state)
                        .setTimestamp(Timestamp.newBuilder().setSeconds(second).setNanos(nanos)))
                .addHistory(Message.newBuilder().setMessageId("m-" + id).setRole(Role.ROLE_USER)
                        .addParts(Part.newBuilder().setText("Grüße, " + id)))
                .build();
    }

    static Task task(String id, TaskState state) {
        return task(id, "c-" + id, state, 1_700_000_000L, 0);
    }

    /** {@code t} moved to {@code state}, with a status time {@code seconds} later. */
    static Task moved(Task t, TaskState state, long seconds) {
        Timestamp was = t.getStatus().getTimestamp();
        return t.toBuilder().setStatus(TaskStatus.newBuilder().setState(state)
                .setTimestamp(was.toBuilder().setSeconds(was.getSeconds() + seconds))).build();
    }

    /** The first event of a task: the task itself. */
    static TaskEvent opened(long seq, Task t) {
        return new TaskEvent(seq, StreamResponse.newBuilder().setTask(t).build(), t);
    }

    /** A status update that left the task as {@code t}. */
    static TaskEvent status(long seq, Task t) {
        return new TaskEvent(seq, StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setTaskId(t.getId()).setContextId(t.getContextId()).setStatus(t.getStatus())).build(), t);
    }

    /** An artifact update that left the task as {@code t} plus the artifact. */
    static TaskEvent artifact(long seq, Task t, String text) {
        Artifact a = Artifact.newBuilder().setArtifactId("a-" + seq).addParts(Part.newBuilder().setText(text)).build();
        Task after = t.toBuilder().addArtifacts(a).build();
        return new TaskEvent(seq, StreamResponse.newBuilder().setArtifactUpdate(TaskArtifactUpdateEvent.newBuilder()
                .setTaskId(t.getId()).setContextId(t.getContextId()).setArtifact(a)).build(), after);
    }
}
