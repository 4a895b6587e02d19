package legate.cli.client;

import legate.a2a.client.A2aClient;
import legate.a2a.client.StreamEnd;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.Message;
import lf.a2a.v1.SendMessageResponse;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;

/**
 * One turn of a task as the client followed it: the message sent (or the subscription), the events
 * printed as they came, and where the task stood at the end.
 *
 * @param taskId the task the turn ran in, or null when the agent answered with a Message only
 * @param state the last state seen
 * @param how how the stream ended; a blocking send ends as {@link StreamEnd.How#TURN_ENDED}
 * @param agentSays the text of the last status message, which explains a failure or a question
 */
public record Turn(String taskId, String contextId, TaskState state, StreamEnd.How how, String agentSays) {

    /**
     * Sends one message, streaming when the card says the agent streams, otherwise with a blocking
     * SendMessage whose task is printed when it comes back.
     */
    public static Turn send(A2aClient client, Message message, EventPrinter printer) {
        if (client.card().getCapabilities().getStreaming()) {
            Follower f = new Follower(printer);
            StreamEnd end = client.stream(message, f::onEvent);
            return f.turn(end);
        }
        SendMessageResponse response = client.send(message);
        if (response.hasMessage()) {
            printer.event(StreamResponse.newBuilder().setMessage(response.getMessage()).build());
            return new Turn(null, response.getMessage().getContextId(), TaskState.TASK_STATE_UNSPECIFIED,
                    StreamEnd.How.MESSAGE, PartText.said(response.getMessage()));
        }
        Task t = response.getTask();
        printer.task(t);
        return new Turn(t.getId(), t.getContextId(), t.getStatus().getState(), StreamEnd.How.TURN_ENDED,
                t.getStatus().hasMessage() ? PartText.said(t.getStatus().getMessage()) : "");
    }

    /** Follows a task's events with SubscribeToTask until its turn ends. */
    public static Turn subscribe(A2aClient client, String taskId, EventPrinter printer) {
        Follower f = new Follower(printer);
        return f.turn(client.subscribe(taskId, f::onEvent));
    }

    /**
     * Null when the turn ended as a caller hoped (COMPLETED, INPUT_REQUIRED or a direct answer),
     * otherwise the one-line reason the command exits non-zero with.
     */
    public String problem() {
        String says = agentSays.isBlank() ? "" : ": " + agentSays;
        String task = "task " + taskId;
        if (how == StreamEnd.How.MESSAGE || state == TaskState.TASK_STATE_COMPLETED
                || state == TaskState.TASK_STATE_INPUT_REQUIRED) {
            return null;
        }
        if (how == StreamEnd.How.CLOSED_EARLY) {
            return "the agent closed the stream before " + task + " finished (last state: " + TaskStates.label(state) + ")";
        }
        if (TaskStates.isTerminal(state)) {
            return task + " ended " + TaskStates.label(state) + says;
        }
        if (state == TaskState.TASK_STATE_AUTH_REQUIRED) {
            return task + " needs credentials the client does not have (auth required)" + says;
        }
        return task + " is still " + TaskStates.label(state);
    }

    /** Prints each event and remembers what the turn needs to report. */
    private static final class Follower {
        private final EventPrinter printer;
        private String taskId;
        private String contextId;
        private String says = "";

        Follower(EventPrinter printer) {
            this.printer = printer;
        }

        boolean onEvent(StreamResponse e) {
            switch (e.getPayloadCase()) {
                case TASK -> {
                    taskId = e.getTask().getId();
                    contextId = e.getTask().getContextId();
                }
                case STATUS_UPDATE -> {
                    taskId = e.getStatusUpdate().getTaskId();
                    contextId = e.getStatusUpdate().getContextId();
                    says = e.getStatusUpdate().getStatus().hasMessage()
                            ? PartText.said(e.getStatusUpdate().getStatus().getMessage()) : "";
                }
                case MESSAGE -> {
                    contextId = e.getMessage().getContextId();
                    says = PartText.said(e.getMessage());
                }
                case ARTIFACT_UPDATE, PAYLOAD_NOT_SET -> {
                    // neither moves the task
                }
            }
            return printer.event(e);
        }

        Turn turn(StreamEnd end) {
            return new Turn(taskId, contextId, end.lastState(), end.how(), says);
        }
    }
}
