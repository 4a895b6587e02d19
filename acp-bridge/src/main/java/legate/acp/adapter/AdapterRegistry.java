package legate.acp.adapter;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import legate.acp.connection.ProcessLauncher;
import legate.acp.log.BridgeLogs;
import legate.acp.log.BridgeTelemetry;
import legate.acp.log.LogFields;
import legate.acp.permission.PermissionPolicy;
import legate.acp.permission.SessionRoot;
import legate.acp.protocol.InitializeResponse;

/**
 * The bridge's agents: one agent process and one ACP session per A2A contextId, started on a
 * conversation's first prompt, kept while a task in it is open, stopped after it has been idle for
 * the configured time, and all stopped at shutdown, whole process trees included.
 *
 * <p>Conversations cannot see each other: each has its own process (so its own memory) and, unless
 * ACP_CWD names one shared directory, its own fresh sandbox directory, which is left behind.
 */
public final class AdapterRegistry implements AutoCloseable {
    private final Backend backend;
    private final AdapterConfig config;
    private final ProcessLauncher launcher;
    private final PermissionPolicy policy;
    private final BridgeLogs logs;
    private final Clock clock;
    private final ConversationRecords records;
    private final Map<String, Conversation> conversations = new ConcurrentHashMap<>();
    /** Open tasks by id, so a cancel of a parked task can find its conversation. */
    private final Map<String, String> openTaskContexts = new ConcurrentHashMap<>();
    private ScheduledExecutorService reaper;
    private volatile boolean closed;
    private final BridgeTelemetry telemetry;

    public AdapterRegistry(Backend backend, AdapterConfig config, ProcessLauncher launcher, PermissionPolicy policy,
                           BridgeLogs logs, Clock clock) {
        this(backend, config, launcher, policy, logs, clock, ConversationRecords.NONE);
    }

    /** @param records told the session and root of each conversation whenever it gets a new session */
    public AdapterRegistry(Backend backend, AdapterConfig config, ProcessLauncher launcher, PermissionPolicy policy,
                           BridgeLogs logs, Clock clock, ConversationRecords records) {
        this(backend, config, launcher, policy, logs, clock, records, BridgeTelemetry.none(backend.id()));
    }

    /** @param telemetry counts this registry's agent processes, and what its turns report */
    public AdapterRegistry(Backend backend, AdapterConfig config, ProcessLauncher launcher, PermissionPolicy policy,
                           BridgeLogs logs, Clock clock, ConversationRecords records, BridgeTelemetry telemetry) {
        this.telemetry = telemetry;
        telemetry.watchProcesses(this::runningProcesses);
        this.records = records;
        this.backend = backend;
        this.config = config;
        this.launcher = launcher;
        this.policy = policy;
        this.logs = logs;
        this.clock = clock;
    }

    public Backend backend() {
        return backend;
    }

    public BridgeTelemetry telemetry() {
        return telemetry;
    }

    /** The conversations whose agent process is alive now. */
    int runningProcesses() {
        int n = 0;
        for (Conversation c : conversations.values()) {
            AdapterSession s = c.session();
            if (s != null && s.isAlive()) {
                n++;
            }
        }
        return n;
    }

    public BridgeLogs logs() {
        return logs;
    }

    public Instant now() {
        return clock.instant();
    }

    /**
     * Starts the agent once in {@code cwd}, reads its answer to {@code initialize} and stops it again:
     * what the Agent Card is built from, before the server listens.
     */
    public InitializeResponse probe(Path cwd) throws AdapterStartFailed {
        return AdapterSession.probe(backend, cwd, logs, launcher, config);
    }

    public Conversation conversation(String contextId) {
        return conversations.computeIfAbsent(contextId, id -> new Conversation(id, clock.instant()));
    }

    /** The conversation's live session, started (with its root) when there is none. Call while holding the turn. */
    public AdapterSession session(Conversation c) throws AdapterStartFailed {
        if (closed) {
            throw new AdapterStartFailed(new AgentFailure("start", "The bridge is shutting down.", false));
        }
        AdapterSession s = c.session();
        if (s != null && s.isAlive()) {
            return s;
        }
        if (s != null) {
            c.detach(s);
            s.stop();
        }
        if (c.root() == null) {
            c.root(newRoot());
        }
        s = AdapterSession.start(backend, c.contextId, c.root(), policy, logs, launcher, config);
        c.session(s);
        keepRecord(c, s);
        if (closed) {
            // A start that raced shutdown must not leave an orphan behind: no agent outlives the bridge.
            c.detach(s);
            s.stop();
            throw new AdapterStartFailed(new AgentFailure("start", "The bridge is shutting down.", false));
        }
        return s;
    }

    /**
     * Keeps the conversation's new session beside its tasks. A store that cannot keep it costs the
     * conversation its memory after a restart, never the task at hand: logged, not thrown.
     */
    private void keepRecord(Conversation c, AdapterSession s) {
        try {
            records.save(c.contextId, new ConversationRecord(backend.id(), s.sessionId(), c.root().path().toString()));
        } catch (RuntimeException e) {
            logs.call("conversation.record_failed", LogFields.of("contextId", c.contextId).and("error", e.toString()).map());
        }
    }

    private SessionRoot newRoot() throws AdapterStartFailed {
        try {
            // Never named from the contextId: SessionRoot.createIn picks a fresh name atomically.
            return config.fixedCwd() != null ? SessionRoot.given(config.fixedCwd()) : SessionRoot.createIn(config.sandboxDir());
        } catch (IOException | IllegalArgumentException e) {
            throw new AdapterStartFailed(new AgentFailure("start", "Cannot prepare the working directory for this"
                    + " conversation: " + e.getMessage(), false));
        }
    }

    /** Stops a session that failed mid-turn; the conversation's next task starts a fresh agent. */
    public void discard(Conversation c, AdapterSession s, String why) {
        if (c.detach(s)) {
            Integer status = s.stop();
            logs.call("adapter.discard", ids(c.contextId, s).and("why", why).and("status", status).map());
        }
    }

    public void taskOpened(String contextId, String taskId) {
        openTaskContexts.put(taskId, contextId);
        conversation(contextId).taskOpened(taskId, clock.instant());
    }

    /** The task is terminal (or canceled while parked): it no longer holds its conversation's agent. */
    public void taskClosed(String taskId) {
        String contextId = openTaskContexts.remove(taskId);
        if (contextId != null) {
            conversation(contextId).taskClosed(taskId, clock.instant());
        }
    }

    /**
     * Stops the agent of every conversation idle for longer than the idle timeout with no open task.
     * Runs on a timer after {@link #startReaper()}; tests call it with their own clock.
     *
     * @return the contextIds whose agents were stopped
     */
    public List<String> reapIdle() {
        Instant cutoff = clock.instant().minus(config.idleTimeout());
        List<String> reaped = new ArrayList<>();
        for (Conversation c : conversations.values()) {
            AdapterSession s = c.detachIfIdleSince(cutoff);
            if (s != null) {
                Integer status = s.stop();
                logs.call("adapter.reap", ids(c.contextId, s)
                        .and("idleMs", Duration.between(c.lastActive(), clock.instant()).toMillis()).and("status", status).map());
                reaped.add(c.contextId);
            }
        }
        return reaped;
    }

    /** Checks for idle agents every quarter of the idle timeout (between 1 s and 30 s). */
    public synchronized void startReaper() {
        if (reaper != null) {
            return;
        }
        long every = Math.max(1000, Math.min(30_000, config.idleTimeout().toMillis() / 4));
        reaper = Executors.newSingleThreadScheduledExecutor(r -> Thread.ofPlatform().daemon().name("acp-reaper").unstarted(r));
        reaper.scheduleWithFixedDelay(this::reapIdleQuietly, every, every, TimeUnit.MILLISECONDS);
    }

    private void reapIdleQuietly() {
        try {
            reapIdle();
        } catch (RuntimeException e) {
            logs.call("adapter.reap_failed", Map.of("error", e.toString()));
        }
    }

    /** Stops every agent (close stdin, wait, SIGTERM, wait, SIGKILL, the whole tree), in parallel. */
    @Override
    public void close() {
        closed = true;
        synchronized (this) {
            if (reaper != null) {
                reaper.shutdownNow();
            }
        }
        List<Thread> stopping = new ArrayList<>();
        for (Conversation c : conversations.values()) {
            AdapterSession s = c.session();
            if (s != null && c.detach(s)) {
                stopping.add(Thread.ofVirtual().start(() -> {
                    Integer status = s.stop();
                    logs.call("adapter.stop", ids(c.contextId, s).and("why", "shutdown").and("status", status).map());
                }));
            }
        }
        for (Thread t : stopping) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static LogFields ids(String contextId, AdapterSession s) {
        return LogFields.of("contextId", contextId).and("pid", s.pid()).and("sessionId", s.sessionId());
    }
}
