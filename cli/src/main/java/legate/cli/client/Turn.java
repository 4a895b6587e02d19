package legate.cli.client;

import legate.a2a.client.A2aClient;
import legate.a2a.client.ResumeAttempt;
import legate.a2a.client.StreamEnd;
import legate.a2a.client.StreamListener;
import legate.a2a.client.TransportException;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.Message;
import lf.a2a.v1.SendMessageRequest;
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
 * @param broke why the connection broke when it broke after the task was named (and could not be
 *     resumed), else null
 */
public record Turn(String taskId, String contextId, TaskState state, StreamEnd.How how, String agentSays, String broke) {

    /**
     * Sends one message, streaming when the card says the agent streams, otherwise with a blocking
     * SendMessage whose task is printed when it comes back. A cut stream is resumed by the client
     * library where the agent allows it; the follower prints one line when that happens.
     */
    public static Turn send(A2aClient client, Message message, EventPrinter printer) {
        return send(client, SendMessageRequest.newBuilder().setMessage(message).build(), printer);
    }

    /** The same for a request with a configuration (a push notification webhook, for one). */
    public static Turn send(A2aClient client, SendMessageRequest request, EventPrinter printer) {
        if (client.card().getCapabilities().getStreaming()) {
            Follower f = new Follower(printer, null);
            try {
                return f.turn(client.stream(request, f));
            } catch (TransportException e) {
                return f.broken(e);
            }
        }
        SendMessageResponse response = client.send(request);
        if (response.hasMessage()) {
            printer.event(StreamResponse.newBuilder().setMessage(response.getMessage()).build());
            return new Turn(null, response.getMessage().getContextId(), TaskState.TASK_STATE_UNSPECIFIED,
                    StreamEnd.How.MESSAGE, PartText.said(response.getMessage()), null);
        }
        Task t = response.getTask();
        printer.task(t);
        return new Turn(t.getId(), t.getContextId(), t.getStatus().getState(), StreamEnd.How.TURN_ENDED,
                t.getStatus().hasMessage() ? PartText.said(t.getStatus().getMessage()) : "", null);
    }

    /** Follows a task's events with SubscribeToTask until its turn ends. */
    public static Turn subscribe(A2aClient client, String taskId, EventPrinter printer) {
        Follower f = new Follower(printer, taskId);
        try {
            return f.turn(client.subscribe(taskId, f));
        } catch (TransportException e) {
            return f.broken(e);
        }
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
        if (broke != null) {
            return "the stream of " + task + " broke before it finished (last state: " + TaskStates.label(state) + "): "
                    + broke + "; follow it with: legate client subscribe " + taskId;
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

    /** Prints each event and each resumption, and remembers what the turn needs to report. */
    private static final class Follower implements StreamListener {
        private final EventPrinter printer;
        private String taskId;
        private String contextId;
        private String says = "";
        private TaskState lastState = TaskState.TASK_STATE_UNSPECIFIED;

        /** @param taskId the task followed, when it is known before its first event */
        Follower(EventPrinter printer, String taskId) {
            this.printer = printer;
            this.taskId = taskId;
        }

        @Override
        public boolean onEvent(StreamResponse e) {
            switch (e.getPayloadCase()) {
                case TASK -> {
                    taskId = e.getTask().getId();
                    contextId = e.getTask().getContextId();
                    lastState = e.getTask().getStatus().getState();
                }
                case STATUS_UPDATE -> {
                    taskId = e.getStatusUpdate().getTaskId();
                    contextId = e.getStatusUpdate().getContextId();
                    lastState = e.getStatusUpdate().getStatus().getState();
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

        @Override
        public boolean onResume(ResumeAttempt attempt) {
            printer.resuming(attempt);
            return true;
        }

        Turn turn(StreamEnd end) {
            return new Turn(taskId, contextId, end.lastState(), end.how(), says, null);
        }

        /**
         * The connection broke and was not resumed. Once the task is named the work exists, so this
         * is a turn whose stream ended early (exit 1, as documented), not an agent out of reach.
         */
        Turn broken(TransportException e) {
            if (taskId == null || e.kind() != TransportException.Kind.CUT) {
                throw e;
            }
            return new Turn(taskId, contextId, lastState, StreamEnd.How.CLOSED_EARLY, says, e.getMessage());
        }
    }
}
