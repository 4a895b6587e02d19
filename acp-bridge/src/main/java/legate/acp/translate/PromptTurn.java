package legate.acp.translate;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import legate.a2a.server.EventSink;
import legate.a2a.server.Reply;
import legate.acp.adapter.AgentFailure;
import legate.acp.adapter.Backend;
import legate.acp.adapter.TurnListener;
import legate.acp.adapter.UsageBudget;
import legate.acp.log.BridgeLogs;
import legate.acp.log.BridgeTelemetry;
import legate.acp.log.LogFields;
import legate.acp.permission.PermissionOption;
import legate.acp.permission.PermissionRequest;
import legate.acp.permission.PermissionVerdict;
import legate.acp.permission.PolicyDecision;
import legate.acp.protocol.PromptResponse;
import legate.acp.protocol.SessionUpdate;
import legate.acp.protocol.StopReason;
import lf.a2a.v1.Message;
import lf.a2a.v1.TaskState;

/**
 * One A2A task turn told from one ACP prompt turn: the translation table of the README, row by
 * row. Session updates become WORKING status updates (text coalesced, the raw update in
 * {@code metadata.acp}); the stop reason decides the artifact and the final state; every refusal by
 * the bridge is collected and reaches the caller in the final status message.
 *
 * <p>A permission request the policy says to ask is put to the caller ({@link #ask}): the task moves
 * to INPUT_REQUIRED while the prompt stays pending, updates that arrive meanwhile are held back,
 * and the caller's reply continues the same turn in the reply's sink (README, "Asking the caller").
 *
 * <p>All methods but {@link #ask} are synchronized: updates arrive on the connection's reader thread,
 * permission verdicts on request threads, and the end of the turn on the executor's thread. Nothing
 * is published after the final state.
 */
public final class PromptTurn implements TurnListener {
    // Coalesced text carries only its kind, so its metadata is the same for every frame.
    private static final Struct MESSAGE_META = AcpMetadata.ofKind("agent_message_chunk");
    private static final Struct THOUGHT_META = AcpMetadata.ofKind("agent_thought_chunk").toBuilder()
            .putFields("thought", Value.newBuilder().setBoolValue(true).build()).build();

    private final Backend backend;
    private final BridgeLogs logs;
    private final UsageBudget budget;
    private final Runnable settle;
    private final Duration askTimeout;
    private final BooleanSupplier cancelAsked;
    private final TextCoalescer message = new TextCoalescer();
    private final TextCoalescer thought = new TextCoalescer();
    private final StringBuilder answer = new StringBuilder();
    private final Refusals refusals = new Refusals();
    private final ToolCallRecords toolCalls = new ToolCallRecords();
    /** One question at a time, in the order the agent asked (fair). */
    private final ReentrantLock questions = new ReentrantLock(true);
    /** What arrived while a question was out: published once it is answered, in order. */
    private final List<Runnable> held = new ArrayList<>();
    private EventSink events;
    private final BridgeTelemetry telemetry;
    /** The ACP prompt's span (invalid when not tracing), and its open tool calls' spans by toolCallId. */
    private Span promptSpan = Span.getInvalid();
    private final Map<String, Span> toolSpans = new HashMap<>();
    private String sessionId;
    private String root;
    private boolean asking;
    private boolean over;

    /**
     * A turn whose policy never asks: a question would wait for the default ask timeout.
     *
     * @param settle runs just before the final state is published: it frees the conversation, so a
     *     client that reacts to the final state finds the agent free (and, once idle, reapable)
     */
    public PromptTurn(EventSink events, Backend backend, BridgeLogs logs, UsageBudget budget, Runnable settle) {
        this(events, backend, logs, budget, settle, Duration.ofMinutes(10), () -> false);
    }

    /**
     * @param askTimeout how long a question waits for the caller (ACP_ASK_TIMEOUT_MS)
     * @param cancelAsked whether the task was canceled: a question that ends unanswered then answers "cancelled"
     */
    public PromptTurn(EventSink events, Backend backend, BridgeLogs logs, UsageBudget budget, Runnable settle,
                      Duration askTimeout, BooleanSupplier cancelAsked) {
        this(events, backend, logs, budget, settle, askTimeout, cancelAsked, BridgeTelemetry.none(backend.id()));
    }

    /** The same, counting permissions, tokens and cost into {@code telemetry} and tracing the prompt and its tool calls. */
    public PromptTurn(EventSink events, Backend backend, BridgeLogs logs, UsageBudget budget, Runnable settle,
                      Duration askTimeout, BooleanSupplier cancelAsked, BridgeTelemetry telemetry) {
        this.telemetry = telemetry;
        this.events = events;
        this.backend = backend;
        this.logs = logs;
        this.budget = budget;
        this.settle = settle;
        this.askTimeout = askTimeout;
        this.cancelAsked = cancelAsked;
    }

    @Override
    public synchronized String taskId() {
        return events.taskId();
    }

    /** True when {@code status} is a permission question this bridge asked (it carries the question's data part). */
    public static boolean asksPermission(Message status) {
        return Question.isQuestion(status);
    }

    /** Where the turn publishes now: the sink it began in, or that of the latest answer to a question. */
    public synchronized EventSink events() {
        return events;
    }

    /** The prompt goes to {@code session}, whose agent works in {@code root}. */
    public synchronized void prompting(String session, String root) {
        this.sessionId = session;
        this.root = root;
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

    /** A WORKING line of the bridge's own (a restored conversation, lost memory). */
    public synchronized void note(String text) {
        if (!over) {
            working(text, null);
        }
    }

    @Override
    public synchronized void onUpdate(SessionUpdate update) {
        if (over) {
            work("update.after_turn", Map.of("kind", update.kind()));
            return;
        }
        if (asking) {
            // The task is INPUT_REQUIRED until the caller answers: what the agent says meanwhile waits.
            held.add(() -> onUpdate(update));
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
                toolCalls.started(t);
                if (promptSpan.getSpanContext().isValid()) {
                    toolSpans.put(t.toolCallId(), telemetry.toolSpan(promptSpan, t.toolCallId(), t.title()));
                }
                String line = TurnText.toolCall(t);
                working(line, t.raw());
                logs.step(events.contextId(), events.taskId(), line);
                work("tool_call", Map.of("toolCallId", t.toolCallId(), "raw", t.raw()));
            }
            case SessionUpdate.ToolCallUpdate t -> {
                flushText();
                toolCalls.updated(t);
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
                working("The agent's session mode is now '" + m.currentModeId() + "'.", m.raw());
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
    public synchronized void onPermission(PermissionRequest request, PermissionVerdict verdict, boolean asked) {
        telemetry.permission(verdict.allowed());
        if (!verdict.allowed()) {
            refusals.add(request.toolCallId(), request.title(), request.kind(), verdict.reason());
        }
        logs.step(events.contextId(), events.taskId(), (verdict.allowed() ? "allowed " : "refused ")
                + (asked ? "(asked) " : "") + verdict.reason());
        if (asked || over) {
            // An asked request was already reported by its answer (or the lack of one).
            return;
        }
        if (asking) {
            held.add(() -> working((verdict.allowed() ? "Allowed: " : "Refused: ") + verdict.reason(), null));
            return;
        }
        flushText();
        working((verdict.allowed() ? "Allowed: " : "Refused: ") + verdict.reason(), null);
    }

    /**
     * Puts {@code request} to the caller and waits for the answer. The task goes INPUT_REQUIRED with
     * the question; the caller's reply (in the same taskId) continues this turn in the reply's sink.
     * An answer that names no offered option is asked again; no answer in time is refused with the
     * agent's own refusal; a cancel answers "cancelled" (PROTOCOL (ACP session/cancel): the client
     * answers every pending permission request with the cancelled outcome).
     */
    @Override
    public PermissionVerdict ask(PermissionRequest request, JsonNode toolCall, PolicyDecision decision)
            throws InterruptedException {
        questions.lockInterruptibly();
        try {
            Question q = new Question(request, toolCall, backend.displayName());
            String said = q.text();
            while (true) {
                EventSink sink;
                synchronized (this) {
                    if (over || cancelAsked.getAsBoolean()) {
                        return cancelled(request);
                    }
                    flushText();
                    asking = true;
                    sink = events;
                }
                logs.step(sink.contextId(), sink.taskId(), "asked: " + firstLine(said));
                Message question = sink.agentText(said).toBuilder().addParts(q.data()).build();
                Optional<Reply> reply = sink.awaitReply(question, askTimeout);
                synchronized (this) {
                    if (reply.isEmpty()) {
                        asking = false;
                        if (over || cancelAsked.getAsBoolean()) {
                            return cancelled(request);
                        }
                        String reason = request.described() + " was not answered within "
                                + askTimeout.toMillis() + " ms (ACP_ASK_TIMEOUT_MS), so it was refused";
                        working("No answer: " + reason + ".", null);
                        releaseHeld();
                        return PermissionVerdict.refuse(request.options(), reason);
                    }
                    events = reply.get().events();
                    events.task(reply.get().context().initialTask());
                    if (cancelAsked.getAsBoolean()) {
                        // A cancel that crossed the answer wins: the turn is ending, the agent gets "cancelled".
                        asking = false;
                        return cancelled(request);
                    }
                    PermissionOption chosen = q.choice(reply.get().context().message());
                    if (chosen == null) {
                        logs.step(events.contextId(), events.taskId(), "answer not understood");
                        said = "That answer names none of the options offered. " + q.accepted();
                        continue;
                    }
                    asking = false;
                    String reason = request.described() + ": the caller chose '" + chosen.name() + "' ("
                            + chosen.optionId() + ", " + chosen.kind() + ")";
                    logs.step(events.contextId(), events.taskId(), "answered " + chosen.optionId());
                    working("Answered: " + reason + ".", null);
                    releaseHeld();
                    return new PermissionVerdict(Question.allows(chosen), chosen.optionId(), reason);
                }
            }
        } finally {
            questions.unlock();
        }
    }

    private PermissionVerdict cancelled(PermissionRequest request) {
        return new PermissionVerdict(false, null, request.described()
                + " was not decided: the task was canceled while the caller was asked");
    }

    private void releaseHeld() {
        List<Runnable> due = new ArrayList<>(held);
        held.clear();
        due.forEach(Runnable::run);
    }

    private static String firstLine(String text) {
        int nl = text.indexOf('\n');
        return nl < 0 ? text : text.substring(0, nl);
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
        asking = false;
        releaseHeld();
        flushText();
        over = true;
        StopReason stop = response.stopReason();
        budget.addPrompt(response.usage());
        telemetry.tokens(response.usage());
        logs.call("prompt.stop", ids().and("stopReason", stop.value()).and("toolCalls", toolCalls.size())
                .and("failedToolCalls", toolCalls.failed())
                .and("refusals", refusals.size()).and("usage", response.usage()).and("budget", budget.snapshot()).map());
        if (stop.equals(StopReason.CANCELLED)) {
            return end(TaskState.TASK_STATE_CANCELED, "The task was canceled; the agent stopped its turn.");
        }
        if (stop.equals(StopReason.REFUSAL)) {
            String said = answer.isEmpty() ? "" : " It said: " + answer.toString().strip();
            return end(cancelRequested ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_REJECTED,
                    "The agent refused this task (stopReason refusal)." + said);
        }
        TurnRecord record = new TurnRecord(backend, sessionId, root, toolCalls, refusals, budget);
        events.artifact(record.answer(stop, response.usage(), answer.toString()), false, true);
        List<ToolCallRecords.FileChange> changes = toolCalls.changes();
        if (!changes.isEmpty()) {
            events.artifact(record.changes(changes), false, true);
        }
        if (cancelRequested) {
            // The work is not thrown away: the agent finished before the cancel reached it.
            return end(TaskState.TASK_STATE_CANCELED, "The task was canceled, but the agent had already finished"
                    + " its turn; its answer is in the artifact.");
        }
        return end(TaskState.TASK_STATE_COMPLETED, TurnText.earlyStop(stop));
    }

    public synchronized TaskState fail(AgentFailure failure) {
        asking = false;
        held.clear();
        flushText();
        over = true;
        return end(TaskState.TASK_STATE_FAILED, failure.message());
    }

    public synchronized TaskState cancel(String why) {
        asking = false;
        held.clear();
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
