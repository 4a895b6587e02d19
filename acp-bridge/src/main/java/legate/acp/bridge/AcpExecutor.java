package legate.acp.bridge;

import java.time.Duration;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;
import legate.acp.adapter.AdapterRegistry;
import legate.acp.adapter.AdapterSession;
import legate.acp.adapter.AdapterStartFailed;
import legate.acp.adapter.AgentFailure;
import legate.acp.adapter.Conversation;
import legate.acp.adapter.SessionStart;
import legate.acp.connection.AcpException;
import legate.acp.connection.ConnectionClosed;
import legate.acp.log.LogFields;
import legate.acp.protocol.AcpMethods;
import legate.acp.protocol.PromptResponse;
import legate.acp.translate.PromptTurn;
import lf.a2a.v1.TaskState;

/**
 * The bridge's turn: forwards an A2A task to an ACP agent as one prompt in the session of its
 * conversation (contextId), and tells the task from the agent's updates ({@link PromptTurn}). The
 * agent processes are the {@link AdapterRegistry}'s. A cancel reaches a turn through its context's
 * cancel signal ({@link RunningTurn}).
 */
public final class AcpExecutor implements AgentExecutor {
    /** ACP_ASK_TIMEOUT_MS's default: ten minutes for a person to answer. */
    public static final Duration DEFAULT_ASK_TIMEOUT = Duration.ofMinutes(10);

    private final AdapterRegistry registry;
    private final Duration askTimeout;

    public AcpExecutor(AdapterRegistry registry) {
        this(registry, DEFAULT_ASK_TIMEOUT);
    }

    /** @param askTimeout how long a permission question waits for the caller's answer (ACP_ASK_TIMEOUT_MS) */
    public AcpExecutor(AdapterRegistry registry, Duration askTimeout) {
        this.registry = registry;
        this.askTimeout = askTimeout;
    }

    @Override
    public void execute(RequestContext context, EventSink events) throws InterruptedException {
        long started = System.nanoTime();
        RunningTurn turn = RunningTurn.following(context.cancel(), where -> {
            call("task.cancel", events, "while", where);
            registry.logs().step(events.contextId(), events.taskId(), "cancel asked (" + where + ")");
        });
        boolean parked = false;
        try {
            // PROTOCOL (A2A §3.1.2): the first event of every turn is the Task, a continuation included,
            // before the agent is started (which takes seconds).
            events.task(context.initialTask());
            registry.taskOpened(context.contextId(), context.taskId());
            if (context.isContinuation() && PromptTurn.asksPermission(context.storedTask().getStatus().getMessage())) {
                // The question was asked by a turn that no longer runs (the bridge restarted meanwhile): its prompt
                // died with the agent, so the answer has nobody to go to, and must not become a new prompt.
                call("task.failed", events, "step", "answer", "message", "question outlived its turn");
                events.status(TaskState.TASK_STATE_FAILED, events.agentText("This task's permission question belonged"
                        + " to a turn that is no longer running (the bridge restarted since it was asked), so the answer"
                        + " cannot reach the agent. Send the request again as a new task in this conversation."));
                return;
            }
            String text = context.text();
            call("task.start", events, "continuation", context.isContinuation(), "chars", text.length());
            registry.logs().step(events.contextId(), events.taskId(), (context.isContinuation() ? "continued: " : "started: ")
                    + excerpt(text));
            if (text.isBlank()) {
                // PROTOCOL (A2A §3.1.3): INPUT_REQUIRED keeps the task (and the conversation's agent) open;
                // no prompt is sent, and a reply with this taskId resumes the task.
                call("task.input_required", events);
                parked = true;
                // Published last: a client may send its reply the moment it sees this state, and the turn
                // must be over by then (the server refuses a message into a task whose turn still runs).
                events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText("What should "
                        + registry.backend().displayName() + " do? This message had no text: send the task in words."));
                return;
            }
            Finished end = runTurn(events, text, turn);
            call("task.finish", end.events(), "state", end.state().name());
            registry.logs().step(events.contextId(), events.taskId(), "finished " + end.state().name().replace("TASK_STATE_", "")
                    + " in " + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms");
        } finally {
            if (!parked) {
                registry.taskClosed(context.taskId());
            }
        }
    }

    /** How a turn ended, and the sink it ended in (a question answered moves the turn to the reply's). */
    private record Finished(TaskState state, EventSink events) {
    }

    private Finished runTurn(EventSink events, String text, RunningTurn turn) throws InterruptedException {
        Conversation c = registry.conversation(events.contextId());
        Conversation.Turn place = c.enter(registry.now());
        PromptTurn translation = new PromptTurn(events, registry.backend(), registry.logs(), c.budget, () -> {
            place.release(registry.now());
            registry.taskClosed(events.taskId());
        }, askTimeout, turn::cancelAsked, registry.telemetry());
        return new Finished(prompt(c, place, translation, events, text, turn), translation.events());
    }

    private TaskState prompt(Conversation c, Conversation.Turn place, PromptTurn translation, EventSink events, String text,
                             RunningTurn turn) throws InterruptedException {
        // One turn at a time per conversation: an ACP session runs one prompt at a time.
        if (!place.await(turn.cancelled)) {
            return translation.cancel("The task was canceled while it waited for the previous turn in this conversation.");
        }
        try {
            if (turn.cancelAsked()) {
                return translation.cancel("The task was canceled before it was sent to the agent.");
            }
            AdapterSession session;
            boolean starting = c.session() == null || !c.session().isAlive();
            if (starting) {
                events.status(TaskState.TASK_STATE_WORKING, events.agentText("Starting " + registry.backend().displayName()
                        + " (" + registry.backend().command().program() + ") for this conversation…"));
            }
            try {
                session = registry.session(c);
            } catch (AdapterStartFailed e) {
                return failed(events, translation, turn, e.failure());
            }
            if (starting) {
                tellOrigin(events, session);
            }
            // PROTOCOL (A2A §3.1.5): a cancel that arrived while the agent was starting was recorded; honour it
            // before prompting. The started agent stays for the conversation's next task.
            if (!turn.beginPrompt(session)) {
                return translation.cancel("The task was canceled before it was sent to the agent.");
            }
            translation.prompting(session.sessionId(), session.root().toString());
            call("prompt.start", events, "sessionId", session.sessionId(), "chars", text.length());
            try {
                PromptResponse response = session.prompt(text, translation);
                return translation.finish(response, turn.cancelAsked());
            } catch (AcpException e) {
                return failed(events, translation, turn, AgentFailure.of(registry.backend(), AcpMethods.SESSION_PROMPT, e));
            } catch (ConnectionClosed e) {
                registry.discard(c, session, e.getMessage());
                return failed(events, translation, turn, AgentFailure.of(registry.backend(), AcpMethods.SESSION_PROMPT, e));
            }
        } finally {
            place.release(registry.now());
        }
    }

    private TaskState failed(EventSink events, PromptTurn translation, RunningTurn turn, AgentFailure failure) {
        call("task.failed", events, "step", failure.step(), "message", failure.message());
        if (turn.cancelAsked()) {
            // PROTOCOL (A2A §3.1.5): a cancel that was asked ends CANCELED, whatever else went wrong.
            return translation.cancel("The task was canceled. " + failure.message());
        }
        return translation.fail(failure);
    }

    /** The WORKING line that says whether the agent remembers the conversation. */
    private void tellOrigin(EventSink events, AdapterSession session) {
        String name = registry.backend().displayName();
        String line = switch (session.origin()) {
            case SessionStart.Fresh f -> null;
            case SessionStart.Restored r -> "Restored this conversation (" + r.method() + " of session " + r.sessionId()
                    + "): " + name + " remembers the earlier turns.";
            case SessionStart.Lost l -> "The earlier memory of this conversation is lost (" + l.why() + "); " + name
                    + " starts a fresh session in the same directory.";
        };
        if (line != null) {
            events.status(TaskState.TASK_STATE_WORKING, events.agentText(line));
            registry.logs().step(events.contextId(), events.taskId(), line);
        }
    }

    private static String excerpt(String text) {
        String one = text.strip().replaceAll("\\s+", " ");
        return one.length() <= 60 ? one : one.substring(0, 60) + "…";
    }

    /**
     * The server canceled a task parked in INPUT_REQUIRED (it published CANCELED itself): the task no
     * longer holds its conversation's agent, which may now be reaped when idle.
     */
    @Override
    public void cancel(String taskId) {
        registry.taskClosed(taskId);
        registry.logs().call("task.cancel", LogFields.of("taskId", taskId).and("while", "parked").map());
    }


    private void call(String event, EventSink events, Object... kv) {
        LogFields f = LogFields.of("contextId", events.contextId()).and("taskId", events.taskId());
        for (int i = 0; i < kv.length; i += 2) {
            f.and((String) kv[i], kv[i + 1]);
        }
        registry.logs().call(event, f.map());
    }
}
