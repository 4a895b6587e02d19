package legate.acp.adapter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import legate.a2a.model.LegateVersion;
import legate.acp.connection.AcpConnection;
import legate.acp.connection.AcpException;
import legate.acp.connection.AdapterProcess;
import legate.acp.connection.ConnectionClosed;
import legate.acp.connection.ProcessLauncher;
import legate.acp.log.BridgeLogs;
import legate.acp.log.LogFields;
import legate.acp.permission.PermissionPolicy;
import legate.acp.permission.SessionRoot;
import legate.acp.protocol.AcpMethods;
import legate.acp.protocol.Implementation;
import legate.acp.protocol.InitializeRequest;
import legate.acp.protocol.InitializeResponse;
import legate.acp.protocol.NewSessionRequest;
import legate.acp.protocol.NewSessionResponse;
import legate.acp.protocol.PromptRequest;
import legate.acp.protocol.PromptResponse;
import legate.wire.jsonrpc.JsonRpcError;

/**
 * One agent process and the one ACP session it holds for a conversation: the handshake
 * ({@code initialize}, {@code session/new}, {@code session/set_mode}), prompt turns one at a time,
 * {@code session/cancel}, and stopping the whole process tree.
 */
public final class AdapterSession {
    static final Implementation CLIENT_INFO = new Implementation("legate", "Legate ACP bridge", LegateVersion.get());

    private final BridgeLogs logs;
    private final AdapterProcess process;
    private final AcpConnection connection;
    private final SessionClient client;
    private final Duration stopGrace;
    private final Path root;
    private volatile String sessionId;
    private volatile SessionStart origin = new SessionStart.Fresh();

    private AdapterSession(BridgeLogs logs, AdapterProcess process, AcpConnection connection, SessionClient client,
                           Duration stopGrace, Path root) {
        this.root = root;
        this.logs = logs;
        this.process = process;
        this.connection = connection;
        this.client = client;
        this.stopGrace = stopGrace;
    }

    /**
     * Starts the agent in {@code root} and opens a session in its supervised mode: the conversation's
     * earlier session when {@code previous} names one and the agent can load or resume it, else a
     * new one ({@link #origin()} says which, and why).
     *
     * @param previous the conversation's record, or null for its first session
     * @throws AdapterStartFailed with the agent stopped again, when any step fails or times out
     */
    static AdapterSession start(Backend backend, String contextId, SessionRoot root, PermissionPolicy policy,
                                BridgeLogs logs, ProcessLauncher launcher, AdapterConfig config,
                                ConversationRecord previous) throws AdapterStartFailed {
        SessionClient client = new SessionClient(contextId, root, policy, logs);
        AdapterSession s = spawn(backend, contextId, root.path(), client, logs, launcher, config, p -> { });
        String step = AcpMethods.INITIALIZE;
        try {
            InitializeResponse init = s.handshake(config.startTimeout());
            long started = System.nanoTime();
            String restored = previous == null ? null : s.restore(init, previous, root, client, config.startTimeout());
            String initialMode = null;
            if (restored == null) {
                step = AcpMethods.SESSION_NEW;
                NewSessionResponse session = NewSessionResponse.fromJson(
                        s.call(AcpMethods.SESSION_NEW, new NewSessionRequest(root.path()).toJson(), config.startTimeout()));
                s.sessionId = session.sessionId();
                initialMode = session.currentModeId();
            } else {
                s.sessionId = restored;
            }
            client.sessionId(s.sessionId);
            String mode = backend.supervisedModeId();
            if (mode != null) {
                step = AcpMethods.SESSION_SET_MODE;
                ObjectNode params = JsonNodeFactory.instance.objectNode();
                params.put("sessionId", s.sessionId);
                params.put("modeId", mode);
                // The bridge never reports a supervision it is not performing: a mode that cannot be set
                // ends the session here.
                s.call(AcpMethods.SESSION_SET_MODE, params, config.startTimeout());
            }
            logs.call(restored == null ? "session.new" : "session.restored", LogFields.of("contextId", contextId)
                    .and("sessionId", s.sessionId).and("origin", s.origin.toString())
                    .and("durationMs", (System.nanoTime() - started) / 1_000_000).and("cwd", root.path())
                    .and("rootOurs", root.ours()).and("mode", mode).and("initialMode", initialMode).map());
            return s;
        } catch (Exception e) {
            AgentFailure failure = AgentFailure.of(backend, step, unwrap(e));
            if (step.equals(AcpMethods.SESSION_SET_MODE)) {
                failure = new AgentFailure(step, backend.displayName() + " could not be switched to its supervised mode '"
                        + backend.supervisedModeId() + "' (" + failure.message() + "). The bridge does not run an agent"
                        + " it cannot supervise; the session was ended.", true);
            }
            s.stop();
            throw new AdapterStartFailed(failure);
        }
    }

    /**
     * Asks the agent to take up {@code previous} again: {@code session/load} when it advertises
     * loadSession, else {@code session/resume} when it advertises that. Returns the session id, or
     * null (and records why in {@link #origin()}) when a new session must start instead. History a
     * load replays arrives while no turn listens, so it is logged and never shown as new work.
     */
    private String restore(InitializeResponse init, ConversationRecord previous, SessionRoot root, SessionClient client,
                           Duration timeout) throws Exception {
        String method = init.loadSession() ? AcpMethods.SESSION_LOAD
                : init.resumeSession() ? AcpMethods.SESSION_RESUME : null;
        if (method == null) {
            origin = new SessionStart.Lost(previous.sessionId(), "the agent can neither load nor resume a session"
                    + " (its initialize answer advertises neither loadSession nor sessionCapabilities.resume)");
            return null;
        }
        if (previous.root() == null || !root.path().toString().equals(previous.root())) {
            origin = new SessionStart.Lost(previous.sessionId(), "its working directory " + previous.root()
                    + " is gone");
            return null;
        }
        client.sessionId(previous.sessionId());
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("sessionId", previous.sessionId());
        params.put("cwd", root.path().toString());
        params.putArray("mcpServers");
        try {
            call(method, params, timeout);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AcpException refused) {
                origin = new SessionStart.Lost(previous.sessionId(), "the agent answered " + method + " with "
                        + refused.getMessage());
                return null;
            }
            throw e;
        }
        origin = new SessionStart.Restored(method, previous.sessionId());
        return previous.sessionId();
    }

    /** Starts the agent once, reads its answer to {@code initialize}, and stops it: what the card is built from. */
    static InitializeResponse probe(Backend backend, Path cwd, BridgeLogs logs, ProcessLauncher launcher,
                                    AdapterConfig config) throws AdapterStartFailed {
        SessionClient client = new SessionClient("", SessionRoot.given(cwd), (r, root) -> {
            throw new IllegalStateException("no session during the handshake");
        }, logs);
        // DEFECT (issue 30, second review): a SIGTERM while the bridge waited for this answer (up to the
        // start timeout) ended the JVM without reaching the finally below, and the agent lived on as an
        // orphan. Until the probe is over, stopping the JVM stops the agent too: the hook is in place
        // before the agent starts, and learns of its process the moment it exists.
        AtomicReference<AdapterProcess> started = new AtomicReference<>();
        Thread reaper = new Thread(() -> {
            AdapterProcess p = started.get();
            if (p != null) {
                p.stop(config.stopGrace());
            }
        }, "legate-probe-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        try {
            AdapterSession s = spawn(backend, "", cwd, client, logs, launcher, config, started::set);
            try {
                return s.handshake(config.startTimeout());
            } catch (Exception e) {
                throw new AdapterStartFailed(AgentFailure.of(backend, AcpMethods.INITIALIZE, unwrap(e)));
            } finally {
                s.stop();
            }
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is stopping: the reaper runs, and stopping a stopped agent is nothing
            }
        }
    }

    /** @param onStart told of the agent's process as soon as it exists */
    private static AdapterSession spawn(Backend backend, String contextId, Path cwd, SessionClient client, BridgeLogs logs,
                                        ProcessLauncher launcher, AdapterConfig config, Consumer<AdapterProcess> onStart)
            throws AdapterStartFailed {
        AdapterProcess process;
        try {
            process = AdapterProcess.start(launcher, backend.command(), cwd);
        } catch (IOException e) {
            throw new AdapterStartFailed(AgentFailure.of(backend, "start", e));
        }
        onStart.accept(process);
        logs.call("adapter.spawn", LogFields.of("contextId", contextId).and("pid", process.pid())
                .and("command", backend.command().display()).map());
        process.exited().thenAccept(status -> logs.call("adapter.exit", LogFields.of("contextId", contextId)
                .and("pid", process.pid()).and("status", status).map()));
        AcpConnection connection = AcpConnection.open(process, client, new AcpConnection.Observer() {
            @Override
            public void unreadableLine(String reason, String excerpt) {
                logs.work("stdout.unreadable", LogFields.of("contextId", contextId).and("pid", process.pid())
                        .and("reason", reason).and("excerpt", excerpt).map());
            }

            @Override
            public void stderrLine(String line) {
                logs.agentStderr(contextId, process.pid(), line);
            }
        }, config.maxLineChars());
        return new AdapterSession(logs, process, connection, client, config.stopGrace(), cwd);
    }

    private InitializeResponse handshake(Duration timeout) throws Exception {
        long started = System.nanoTime();
        InitializeResponse init = InitializeResponse.fromJson(
                call(AcpMethods.INITIALIZE, new InitializeRequest(CLIENT_INFO).toJson(), timeout));
        logs.call("handshake", LogFields.of("pid", process.pid()).and("protocolVersion", init.protocolVersion())
                .and("agentInfo", init.agentInfo()).and("authMethods", init.authMethods().stream().map(m -> m.id()).toList())
                .and("durationMs", (System.nanoTime() - started) / 1_000_000).map());
        return init;
    }

    private JsonNode call(String method, JsonNode params, Duration timeout) throws Exception {
        return connection.request(method, params).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public String sessionId() {
        return sessionId;
    }

    /** The directory the agent works in. */
    public Path root() {
        return root;
    }

    /** How this session began: fresh, restored, or fresh because the earlier memory was lost. */
    public SessionStart origin() {
        return origin;
    }

    long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive() && !connection.closed().isDone();
    }

    /** Runs one prompt turn; the listener hears the turn's updates until the answer arrives. No timeout. */
    public PromptResponse prompt(String text, TurnListener listener) throws AcpException, ConnectionClosed, InterruptedException {
        client.turn(listener);
        try {
            return PromptResponse.fromJson(connection.request(AcpMethods.SESSION_PROMPT,
                    new PromptRequest(sessionId, text).toJson()).get());
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof AcpException a) {
                throw a;
            }
            if (cause instanceof ConnectionClosed c) {
                throw c;
            }
            throw new AcpException(JsonRpcError.INTERNAL_ERROR, String.valueOf(cause));
        } catch (IllegalArgumentException e) {
            throw new AcpException(JsonRpcError.INTERNAL_ERROR, e.getMessage());
        } finally {
            client.turn(null);
        }
    }

    /** PROTOCOL (ACP): cancel is the notification session/cancel; the prompt then answers stopReason "cancelled". */
    public void cancel() {
        ObjectNode params = JsonNodeFactory.instance.objectNode();
        params.put("sessionId", sessionId);
        try {
            connection.notify(AcpMethods.SESSION_CANCEL, params);
        } catch (IOException e) {
            // the agent is gone; its prompt fails with ConnectionClosed
        }
    }

    /** Stops the agent and everything it started; returns its exit status (null if it could not be killed). */
    Integer stop() {
        Integer status = process.stop(stopGrace);
        connection.close();
        return status;
    }

    private static Throwable unwrap(Throwable e) {
        return e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
    }
}
