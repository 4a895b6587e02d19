package legate.a2a.server;

import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.SendMessageConfiguration;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;

/**
 * What an executor is told about the turn it runs: the ids the server chose or confirmed, the
 * caller's message (already stamped with those ids), the stored task when the message continues
 * one, the caller's configuration, and the signal through which a cancel reaches the turn.
 *
 * @param storedTask the task as stored before this message, or null for a new task
 * @param cancel raised when a client cancels the task during this turn, or before it started
 */
public record RequestContext(
        String taskId,
        String contextId,
        Message message,
        Task storedTask,
        SendMessageConfiguration configuration,
        CancelSignal cancel) {

    /** The caller's text parts joined by newlines; data, raw and url parts carry no text. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        for (Part p : message.getPartsList()) {
            if (p.getContentCase() == Part.ContentCase.TEXT) {
                if (!sb.isEmpty()) {
                    sb.append('\n');
                }
                sb.append(p.getText());
            }
        }
        return sb.toString();
    }

    public boolean isContinuation() {
        return storedTask != null;
    }

    /**
     * The Task to publish first. PROTOCOL (A2A §3.1.2): a task stream starts with a Task. For a new
     * task it is SUBMITTED with the caller's message as its history; for a continuation it is the
     * stored task with the caller's reply appended, so the snapshot shows the whole conversation.
     */
    public Task initialTask() {
        if (storedTask != null) {
            return storedTask.toBuilder().addHistory(message).build();
        }
        return Task.newBuilder()
                .setId(taskId)
                .setContextId(contextId)
                .setStatus(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_SUBMITTED))
                .addHistory(message)
                .build();
    }
}
