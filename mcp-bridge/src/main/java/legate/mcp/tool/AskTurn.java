package legate.mcp.tool;

import java.time.Duration;
import legate.a2a.client.A2aClientException;
import legate.a2a.client.ResumeAttempt;
import legate.a2a.client.StreamEnd;
import legate.a2a.model.TaskStates;
import legate.mcp.upstream.ArtifactAggregate;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskArtifactUpdateEvent;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;

/**
 * One a2a_ask turn as its A2A events arrive: the task's identity, its state, the latest status
 * message, the artifacts and, at the end, which of the four {@link Outcome}s it was. Each event
 * also becomes the line of one progress notification. Single-threaded: the tool's thread folds
 * every event.
 */
final class AskTurn {
    private final String agent;
    private final ArtifactAggregate artifacts = new ArtifactAggregate();
    private String taskId;
    private String contextId;
    private TaskState state = TaskState.TASK_STATE_UNSPECIFIED;
    private Message statusMessage;
    private Message answer;
    private int events;

    /**
     * @param agent the alias the caller knows the agent by
     * @param taskId the task this message continues, or null
     * @param contextId the conversation this message belongs to, or null
     */
    AskTurn(String agent, String taskId, String contextId) {
        this.agent = agent;
        this.taskId = taskId == null ? "" : taskId;
        this.contextId = contextId == null ? "" : contextId;
    }

    /** Folds one event in and says what happened, for a progress notification. */
    String accept(StreamResponse event) {
        boolean first = events++ == 0;
        String what = switch (event.getPayloadCase()) {
            case TASK -> {
                identify(event.getTask().getId(), event.getTask().getContextId());
                status(event.getTask().getStatus());
                artifacts.snapshot(event.getTask().getArtifactsList());
                yield "task " + TaskStates.label(state) + said(event.getTask().getStatus());
            }
            case STATUS_UPDATE -> {
                identify(event.getStatusUpdate().getTaskId(), event.getStatusUpdate().getContextId());
                status(event.getStatusUpdate().getStatus());
                yield TaskStates.label(state) + said(event.getStatusUpdate().getStatus());
            }
            case ARTIFACT_UPDATE -> {
                TaskArtifactUpdateEvent update = event.getArtifactUpdate();
                identify(update.getTaskId(), update.getContextId());
                artifacts.apply(update);
                yield "artifact " + update.getArtifact().getArtifactId() + (update.getAppend() ? " (more parts)" : "");
            }
            case MESSAGE -> {
                answer = event.getMessage();
                identify(answer.getTaskId(), answer.getContextId());
                yield "message: " + excerpt(TaskReport.answerOf(answer, java.util.List.of(), null));
            }
            case PAYLOAD_NOT_SET -> "an event of a kind this bridge does not know (passed over)";
        };
        // The first notification carries the ids in full: a caller that loses the result can still
        // find the work with a2a_task.
        return first ? "agent " + agent + ", " + identity() + ": " + what : what;
    }

    String agent() {
        return agent;
    }

    boolean started() {
        return events > 0;
    }

    /** The stream was cut and the client subscribes again after the last event. */
    String resuming(ResumeAttempt attempt) {
        return "stream from agent " + agent + " cut; resuming after event " + attempt.lastEventId()
                + " (attempt " + attempt.attempt() + " of " + attempt.attempts() + "; " + excerpt(attempt.why()) + ")";
    }

    /** A tick while upstream is quiet. */
    String heartbeat(Duration quiet) {
        String who = started() ? identity() : "no task yet";
        return "agent " + agent + " quiet for " + human(quiet) + " (" + who + "); still waiting";
    }

    /** The turn as the stream ended it. */
    TaskReport finish(StreamEnd end) {
        if (answer != null) {
            return report(Outcome.MESSAGE, "");
        }
        if (TaskStates.isTerminal(state)) {
            return report(Outcome.TASK, "");
        }
        boolean over = end.how() == StreamEnd.How.TURN_ENDED || end.how() == StreamEnd.How.STOPPED;
        if (over && TaskStates.isInterrupted(state)) {
            String waitsFor = state == TaskState.TASK_STATE_AUTH_REQUIRED ? "credentials" : "input";
            String reply = "Reply with a2a_ask and taskId " + taskId
                    + " to continue this task; a contextId alone would open a second task and leave this one waiting.";
            PermissionQuestion question = PermissionQuestion.in(statusMessage);
            return report(Outcome.INTERRUPTED, question != null ? question.howToAnswer(taskId) + " " + reply
                    : "The agent waits for " + waitsFor + ". " + reply);
        }
        return cutShort("the agent closed the stream before the task finished");
    }

    /**
     * The stream failed. Before any event there is no work to recover, so the agent's answer is the
     * error; after one, the work exists and the caller gets its identity.
     */
    TaskReport fail(A2aClientException error) {
        if (!started()) {
            throw new ToolFailure("agent " + agent + " did not take the message: " + error.getMessage());
        }
        return cutShort("the stream broke: " + error.getMessage());
    }

    /** Upstream sent nothing for {@code silence}: the turn is given up, the work is not. */
    TaskReport silent(Duration silence) {
        return cutShort("agent " + agent + " sent no event for " + human(silence) + ", so this call stopped waiting");
    }

    String identity() {
        return "task " + (taskId.isEmpty() ? "(none)" : taskId) + ", context " + (contextId.isEmpty() ? "(none)" : contextId);
    }

    TaskReport cutShort(String why) {
        String recover = taskId.isEmpty()
                ? " No task id was received, so there is nothing to look up."
                : " The task may still be running: read it with a2a_task (taskId " + taskId + ", agent " + agent
                        + ") or stop it with a2a_cancel.";
        return report(Outcome.TRUNCATED, why + " (" + identity() + ")." + recover);
    }

    private TaskReport report(Outcome outcome, String note) {
        var list = artifacts.artifacts();
        return new TaskReport(agent, taskId, contextId, state, outcome, TaskReport.answerOf(answer, list, statusMessage),
                list, statusMessage, note);
    }

    private void identify(String task, String context) {
        if (!task.isEmpty()) {
            taskId = task;
        }
        if (!context.isEmpty()) {
            contextId = context;
        }
    }

    /** The latest status message is kept through the turn: a later update without one does not erase it. */
    private void status(TaskStatus status) {
        state = status.getState();
        if (status.hasMessage()) {
            statusMessage = status.getMessage();
        }
    }

    private static String said(TaskStatus status) {
        if (!status.hasMessage()) {
            return "";
        }
        String text = status.getMessage().getPartsList().stream().filter(p -> p.getContentCase() == Part.ContentCase.TEXT)
                .map(Part::getText).reduce((a, b) -> a + " " + b).orElse("").strip();
        return text.isEmpty() ? "" : ": " + excerpt(text);
    }

    private static String human(Duration d) {
        return d.toMillis() % 1000 == 0 || d.toSeconds() >= 10 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }

    private static String excerpt(String text) {
        String one = text.replaceAll("\\s+", " ").strip();
        return one.length() > 200 ? one.substring(0, 200) + "…" : one;
    }
}
