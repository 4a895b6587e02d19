package legate.mcp.tool;

import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import legate.a2a.model.ProtoJson;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;

/**
 * What a tool tells its caller about a piece of A2A work: which agent, task and context, the state,
 * how the turn ended, the answer, the artifacts and the agent's last status message. It becomes one
 * MCP tool result: a text a model reads and the same facts as {@code structuredContent}.
 *
 * @param agent the alias the caller names the agent by
 * @param taskId the task, "" when the agent answered with a Message outside any task
 * @param contextId the conversation, "" when unknown
 * @param state the task's state, UNSPECIFIED when there is no task
 * @param outcome how an a2a_ask turn ended; null for a task read back or canceled
 * @param answer the agent's reply as text: its Message, else its artifacts' text, else its status message
 * @param artifacts the task's artifacts
 * @param statusMessage the latest status message, null when the agent sent none; refusals, questions
 *     and auth failures are explained here
 * @param note what the caller can do next (reply into this task, recover it), "" when nothing
 */
record TaskReport(String agent, String taskId, String contextId, TaskState state, Outcome outcome, String answer,
                  List<Artifact> artifacts, Message statusMessage, String note) {

    /** The outputSchema of a2a_ask, a2a_task and a2a_cancel: the keys of {@link #structured()}. */
    static final Map<String, Object> OUTPUT_SCHEMA = Map.of(
            "type", "object",
            "properties", Map.of(
                    "agent", Map.of("type", "string"),
                    "taskId", Map.of("type", "string"),
                    "contextId", Map.of("type", "string"),
                    "state", Map.of("type", "string"),
                    "outcome", Map.of("type", "string", "enum", List.of("task", "message", "interrupted", "truncated")),
                    "answer", Map.of("type", "string"),
                    "artifacts", Map.of("type", "array", "items", Map.of("type", "object")),
                    "statusMessage", Map.of("type", "object"),
                    "options", Map.of("type", "array", "items", Map.of("type", "object")),
                    "note", Map.of("type", "string")),
            "required", List.of("agent", "taskId", "contextId", "state"));

    TaskReport {
        artifacts = List.copyOf(artifacts);
        answer = answer == null ? "" : answer;
        note = note == null ? "" : note;
    }

    /** A task as the agent stores it (GetTask, CancelTask): no turn, so no outcome. */
    static TaskReport of(String agent, Task task) {
        Message status = task.getStatus().hasMessage() ? task.getStatus().getMessage() : null;
        return new TaskReport(agent, task.getId(), task.getContextId(), task.getStatus().getState(), null,
                answerOf(null, task.getArtifactsList(), status), task.getArtifactsList(), status, "");
    }

    /** The reply as text: the Message when there is one, else the artifacts' text, else the status message's. */
    static String answerOf(Message message, List<Artifact> artifacts, Message status) {
        if (message != null) {
            return said(message.getPartsList());
        }
        String fromArtifacts = artifacts.stream().map(a -> said(a.getPartsList()))
                .filter(s -> !s.isEmpty()).collect(Collectors.joining("\n"));
        if (!fromArtifacts.isEmpty()) {
            return fromArtifacts;
        }
        return status == null ? "" : said(status.getPartsList());
    }

    /** MCP's isError: a truncated turn, or a task that ended failed, canceled or rejected. */
    boolean isError() {
        return outcome == Outcome.TRUNCATED
                || (outcome == Outcome.TASK && state != TaskState.TASK_STATE_COMPLETED);
    }

    CallToolResult toResult() {
        return CallToolResult.builder().addTextContent(text()).structuredContent(structured()).isError(isError()).build();
    }

    Map<String, Object> structured() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("agent", agent);
        out.put("taskId", taskId);
        out.put("contextId", contextId);
        out.put("state", state == TaskState.TASK_STATE_UNSPECIFIED ? "" : state.name());
        if (outcome != null) {
            out.put("outcome", outcome.wireName());
        }
        out.put("answer", answer);
        out.put("artifacts", artifacts.stream().map(StructuredJson::of).toList());
        if (statusMessage != null) {
            out.put("statusMessage", StructuredJson.of(statusMessage));
        }
        PermissionQuestion question = outcome == Outcome.INTERRUPTED ? PermissionQuestion.in(statusMessage) : null;
        if (question != null) {
            // The options of a bridge's permission question, lifted out of the status message's data part.
            out.put("options", question.options());
        }
        if (!note.isEmpty()) {
            out.put("note", note);
        }
        return out;
    }

    /** The readable result: a headline, the ids in full, the answer, each artifact, the status message. */
    String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("Agent ").append(agent).append(": ").append(headline()).append('\n');
        if (!taskId.isEmpty()) {
            sb.append("taskId: ").append(taskId).append('\n');
        }
        if (!contextId.isEmpty()) {
            sb.append("contextId: ").append(contextId).append('\n');
        }
        if (!note.isEmpty()) {
            sb.append(note).append('\n');
        }
        if (outcome == Outcome.MESSAGE && !answer.isEmpty()) {
            sb.append("\n").append(answer).append('\n');
        }
        for (Artifact a : artifacts) {
            sb.append("\nArtifact ").append(a.getArtifactId());
            if (!a.getName().isEmpty() && !a.getName().equals(a.getArtifactId())) {
                sb.append(" (").append(a.getName()).append(')');
            }
            sb.append(":\n");
            a.getPartsList().forEach(p -> sb.append(partText(p)).append('\n'));
        }
        if (statusMessage != null && outcome != Outcome.MESSAGE) {
            sb.append("\nLast status message: ").append(said(statusMessage.getPartsList())).append('\n');
        }
        return sb.toString().stripTrailing();
    }

    private String headline() {
        String st = state == TaskState.TASK_STATE_UNSPECIFIED ? "" : TaskStates.label(state);
        if (outcome == null) {
            return "task " + st + ".";
        }
        return switch (outcome) {
            case TASK -> "the task ended " + st + ".";
            case MESSAGE -> "the agent answered with a message.";
            case INTERRUPTED -> "the task is waiting (" + st + "); it is not over.";
            case TRUNCATED -> "the turn was cut short" + (st.isEmpty() ? "" : " while the task was " + st) + ".";
        };
    }

    /** The text parts of a message or artifact, joined by newlines. */
    private static String said(List<Part> parts) {
        return parts.stream().filter(p -> p.getContentCase() == Part.ContentCase.TEXT).map(Part::getText)
                .collect(Collectors.joining("\n")).strip();
    }

    /** One part as a line: text as written, data as its JSON, files by name and place. */
    private static String partText(Part p) {
        String file = p.getFilename().isEmpty() ? "file" : p.getFilename();
        return switch (p.getContentCase()) {
            case TEXT -> p.getText();
            case DATA -> ProtoJson.print(p.getData());
            case URL -> file + " at " + p.getUrl();
            case RAW -> file + ": " + p.getRaw().size() + " bytes" + (p.getMediaType().isEmpty() ? "" : " of " + p.getMediaType());
            case CONTENT_NOT_SET -> "(an empty part)";
        };
    }
}
