package legate.a2a.server.task;

import java.time.Instant;
import legate.a2a.server.RandomIds;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import lf.a2a.v1.TaskStatusUpdateEvent;

/**
 * A task that is not terminal and has no turn running: interrupted in INPUT_REQUIRED or
 * AUTH_REQUIRED (a turn never ends leaving its task SUBMITTED or WORKING), or left SUBMITTED or
 * WORKING by a process that stopped in the middle of a turn. Nobody publishes for it until a reply
 * starts the next turn, so when it ends (canceled, or failed by the next start) the server ends it
 * itself.
 *
 * @param stored the task as stored, with the sequence number of its latest event
 */
record ParkedTask(StoredTask stored) {
    private static final String CANCELED = "The task was canceled.";
    private static final String INTERRUPTED = "The agent's server restarted while this task was running, so the run was"
            + " interrupted and nothing more will come of it. Send the request again as a new message.";

    /** The status update that ends the task CANCELED, as the next event of its log. */
    TaskEvent canceled(Instant now) {
        return ended(TaskState.TASK_STATE_CANCELED, CANCELED, now);
    }

    /**
     * The status update that ends FAILED a run whose instance was lost (its heartbeat stopped), as
     * the next event of its log.
     *
     * @param instance which instance, as a person recognises it (its id and URL)
     */
    TaskEvent lost(String instance, Instant now) {
        return ended(TaskState.TASK_STATE_FAILED, "Instance lost: " + instance + " was running this task and stopped"
                + " answering (its heartbeat expired), so the run was interrupted and nothing more will come of it."
                + " Send the request again as a new message.", now);
    }

    /**
     * The status update that ends a run a restart interrupted FAILED, as the next event of its log.
     * A task whose stored record no longer decodes is ended the same way, saying so: the event and
     * the task it leaves (the stand-in, FAILED) replace what could not be read.
     */
    TaskEvent interrupted(Instant now) {
        if (!stored.readable()) {
            return ended(TaskState.TASK_STATE_FAILED, "The agent's server restarted while this task was running, and"
                    + " the task's stored record could not be read back (" + stored.unreadable() + "), so it was set"
                    + " aside: its earlier messages and artifacts are lost. Send the request again as a new message.", now);
        }
        return ended(TaskState.TASK_STATE_FAILED, INTERRUPTED, now);
    }

    /**
     * The status update that ends the task in {@code state}, with the agent's status message joining
     * the history as every status message does (PEER @a2a-js/sdk 1.2.0).
     */
    private TaskEvent ended(TaskState state, String text, Instant now) {
        Task task = stored.task();
        Message said = Message.newBuilder()
                .setMessageId(RandomIds.next())
                .setRole(Role.ROLE_AGENT)
                .setTaskId(task.getId())
                .setContextId(task.getContextId())
                .addParts(Part.newBuilder().setText(text))
                .build();
        TaskStatus status = TaskStatus.newBuilder()
                .setState(state)
                .setMessage(said)
                .setTimestamp(TaskRun.timestamp(now))
                .build();
        StreamResponse update = StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setTaskId(task.getId()).setContextId(task.getContextId()).setStatus(status)).build();
        return new TaskEvent(stored.lastSeq() + 1, update, task.toBuilder().setStatus(status).addHistory(said).build(),
                stored.owner());
    }
}
