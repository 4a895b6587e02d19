package legate.acp.translate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Struct;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import legate.a2a.server.EventSink;
import legate.acp.adapter.AgentFailure;
import legate.acp.adapter.Backend;
import legate.acp.adapter.TurnListener;
import legate.acp.adapter.UsageBudget;
import legate.acp.log.BridgeLogs;
import legate.acp.log.BridgeTelemetry;
import legate.acp.log.LogFields;
import legate.acp.permission.PermissionRequest;
import legate.acp.permission.PermissionVerdict;
import legate.acp.protocol.PromptResponse;
import legate.acp.protocol.SessionUpdate;
import legate.acp.protocol.StopReason;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.TaskState;

/**
 * One A2A task turn told from one ACP prompt turn: the translation table of the README, row by
 * row. Session updates become WORKING status updates (text coalesced, the raw update in
 * {@code metadata.acp}); the stop reason decides the artifact and the final state; every refusal by
 * the bridge is collected and reaches the caller in the final status message.
 *
 * <p>All methods are synchronized: updates arrive on the connection's reader thread, permission
 * verdicts on request threads, and the end of the turn on the executor's thread. Nothing is
 * published after the final state.
 */
public final class PromptTurn implements TurnListener {
    static final String ARTIFACT_ID = "answer";
    // Coalesced text carries only its kind, so its metadata is the same for every frame.
    private static final Struct MESSAGE_META = AcpMetadata.ofKind("agent_message_chunk");
    private static final Struct THOUGHT_META = AcpMetadata.ofKind("agent_thought_chunk");

    private final EventSink events;
    private final Backend backend;
    private final BridgeLogs logs;
    private final UsageBudget budget;
    private final Runnable settle;
    private final TextCoalescer message = new TextCoalescer();
    private final TextCoalescer thought = new TextCoalescer();
    private final StringBuilder answer = new StringBuilder();
    private final Refusals refusals = new Refusals();
    private final BridgeTelemetry telemetry;
    /** The ACP prompt's span (invalid when not tracing), and its open tool calls' spans by toolCallId. */
    private Span promptSpan = Span.getInvalid();
    private final Map<String, Span> toolSpans = new HashMap<>();
    private String sessionId;
    private int toolCalls;
    private boolean over;

    /**
     * @param settle runs just before the final state is published: it frees the conversation, so a
     *     client that reacts to the final state finds the agent free (and, once idle, reapable)
     */
    public PromptTurn(EventSink events, Backend backend, BridgeLogs logs, UsageBudget budget, Runnable settle) {
        this(events, backend, logs, budget, settle, BridgeTelemetry.none(backend.id()));
    }

    /** The same, counting permissions, tokens and cost into {@code telemetry} and tracing the prompt and its tool calls. */
    public PromptTurn(EventSink events, Backend backend, BridgeLogs logs, UsageBudget budget, Runnable settle,
                      BridgeTelemetry telemetry) {
        this.telemetry = telemetry;
        this.events = events;
        this.backend = backend;
        this.logs = logs;
        this.budget = budget;
        this.settle = settle;
    }

    @Override
    public String taskId() {
        return events.taskId();
    }

    public synchronized void prompting(String session) {
        this.sessionId = session;
        // On the executor's thread, where the task's turn span is current: the prompt's span is its child.
        this.promptSpan = telemetry.promptSpan(session);
        working(backend.displayName() + " is working on it.", null);
    }

    private void endToolSpan(String toolCallId, String status) {
        Span span = toolSpans.remove(toolCallId);
        if (span != null) {
            span.setAttribute("acp.status", status);
            if (!"completed".equals(status)) {
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
        }
    }

    @Override
    public synchronized void onUpdate(SessionUpdate update) {
        if (over) {
            work("update.after_turn", Map.of("kind", update.kind()));
            return;
        }
        switch (update) {
            case SessionUpdate.AgentMessageChunk c -> {
                say(thought.drain(), true);
                answer.append(c.text());
                say(message.add(c.text()), false);
            }
            case SessionUpdate.AgentThoughtChunk t -> {
                say(message.drain(), false);
                say(thought.add(t.text()), true);
            }
            case SessionUpdate.UserMessageChunk u -> work("update", Map.of("kind", u.kind()));
            case SessionUpdate.ToolCall t -> {
                flushText();
                toolCalls++;
                if (promptSpan.getSpanContext().isValid()) {
                    toolSpans.put(t.toolCallId(), telemetry.toolSpan(promptSpan, t.toolCallId(), t.title()));
                }
                working(TurnText.toolCall(t), t.raw());
                work("tool_call", Map.of("toolCallId", t.toolCallId(), "raw", t.raw()));
            }
            case SessionUpdate.ToolCallUpdate t -> {
                flushText();
                if (t.status() != null || t.title() != null) {
                    working(TurnText.toolCallUpdate(t), t.raw());
                }
                if ("completed".equals(t.status()) || "failed".equals(t.status())) {
                    endToolSpan(t.toolCallId(), t.status());
                }
                work("tool_call_update", Map.of("toolCallId", t.toolCallId(), "raw", t.raw()));
            }
            case SessionUpdate.Plan p -> {
                flushText();
                working(TurnText.plan(p), p.raw());
                work("plan", Map.of("raw", p.raw()));
            }
            case SessionUpdate.CurrentModeUpdate m -> {
                flushText();
                working("The agent's session mode is now '" + m.currentModeId() + "'.", null);
                work("mode", Map.of("modeId", String.valueOf(m.currentModeId())));
            }
            case SessionUpdate.UsageUpdate u -> {
                telemetry.cost(budget.window(u.raw()), budget.currency());
                work("usage_update", Map.of("raw", u.raw()));
            }
            // PEER (claude-agent-acp, codex-acp): new update kinds come with new agent versions; an unknown
            // one is logged and left out of the task, never fatal.
            case SessionUpdate.Unknown u -> work("update.ignored", Map.of("kind", u.kind()));
        }
    }

    @Override
    public synchronized void onPermission(PermissionRequest request, PermissionVerdict verdict) {
        telemetry.permission(verdict.allowed());
        if (!verdict.allowed()) {
            refusals.add(request.toolCallId(), request.title(), request.kind(), verdict.reason());
        }
        if (!over) {
            flushText();
            working((verdict.allowed() ? "Allowed: " : "Refused: ") + verdict.reason(), null);
        }
    }

    @Override
    public synchronized void onFileRefused(String method, String path, String reason) {
        String why = method + " refused: " + reason;
        refusals.add(null, method + " " + path, method, why);
        if (!over) {
            flushText();
            working("Refused: " + why, null);
        }
    }

    /** The prompt answered: artifact and final state as the stop reason says. Returns the final state. */
    public synchronized TaskState finish(PromptResponse response, boolean cancelRequested) {
        flushText();
        over = true;
        StopReason stop = response.stopReason();
        budget.addPrompt(response.usage());
        telemetry.tokens(response.usage());
        logs.call("prompt.stop", ids().and("stopReason", stop.value()).and("toolCalls", toolCalls)
                .and("refusals", refusals.size()).and("usage", response.usage()).and("budget", budget.snapshot()).map());
        if (stop.equals(StopReason.CANCELLED)) {
            return end(TaskState.TASK_STATE_CANCELED, "The task was canceled; the agent stopped its turn.");
        }
        if (stop.equals(StopReason.REFUSAL)) {
            String said = answer.isEmpty() ? "" : " It said: " + answer.toString().strip();
            return end(cancelRequested ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_REJECTED,
                    "The agent refused this task (stopReason refusal)." + said);
        }
        events.artifact(artifact(stop, response.usage()), false, true);
        if (cancelRequested) {
            // The work is not thrown away: the agent finished before the cancel reached it.
            return end(TaskState.TASK_STATE_CANCELED, "The task was canceled, but the agent had already finished"
                    + " its turn; its answer is in the artifact.");
        }
        return end(TaskState.TASK_STATE_COMPLETED, TurnText.earlyStop(stop));
    }

    public synchronized TaskState fail(AgentFailure failure) {
        flushText();
        over = true;
        return end(TaskState.TASK_STATE_FAILED, failure.message());
    }

    public synchronized TaskState cancel(String why) {
        flushText();
        over = true;
        return end(TaskState.TASK_STATE_CANCELED, why);
    }

    private TaskState end(TaskState state, String note) {
        for (String id : List.copyOf(toolSpans.keySet())) {
            endToolSpan(id, "unfinished");
        }
        promptSpan.setAttribute("a2a.task_state", state.name());
        promptSpan.end();
        String text = refusals.after(note);
        settle.run();
        events.status(state, text == null ? null : events.agentText(text));
        return state;
    }

    private Artifact artifact(StopReason stop, JsonNode usage) {
        ObjectNode data = JsonNodeFactory.instance.objectNode();
        data.put("stopReason", stop.value());
        if (usage != null) {
            data.set("usage", usage);
        }
        data.put("toolCalls", toolCalls);
        data.set("refusals", refusals.data());
        Artifact.Builder a = Artifact.newBuilder().setArtifactId(ARTIFACT_ID).setName(ARTIFACT_ID)
                .setDescription(backend.displayName() + "'s answer");
        if (!answer.isEmpty()) {
            a.addParts(Part.newBuilder().setText(answer.toString()).setMediaType("text/plain"));
        }
        return a.addParts(Part.newBuilder().setData(AcpMetadata.value(data)).setMediaType("application/json")).build();
    }

    private void flushText() {
        say(message.drain(), false);
        say(thought.drain(), true);
    }

    private void say(String text, boolean isThought) {
        if (text != null) {
            status(isThought ? "Thinking: " + text : text, isThought ? THOUGHT_META : MESSAGE_META);
        }
    }

    private void working(String text, JsonNode raw) {
        status(text, raw == null ? null : AcpMetadata.of(raw));
    }

    private void status(String text, Struct meta) {
        Message m = events.agentText(text);
        if (meta != null) {
            m = m.toBuilder().setMetadata(meta).build();
        }
        events.status(TaskState.TASK_STATE_WORKING, m);
    }

    private void work(String event, Map<String, ?> rest) {
        logs.work(event, ids().andAll(rest).map());
    }

    private LogFields ids() {
        return LogFields.of("contextId", events.contextId()).and("taskId", events.taskId()).and("sessionId", sessionId);
    }
}
