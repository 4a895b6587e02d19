package legate.acp.adapter;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
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
    /** Agents being started and not yet attached to their conversation; guarded by {@link #slots}. */
    private int starting;
    private final Object slots = new Object();

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
        // The conversation's earlier session, to restore: from this process (after an idle reap or a crash)
        // or from the store (after a restart). One kept for another backend is not offered to this one.
        ConversationRecord previous = c.record() != null ? c.record() : findRecord(c.contextId);
        if (previous != null && !backend.id().equals(previous.backend())) {
            previous = null;
        }
        if (c.root() == null) {
            c.root(previous == null ? newRoot() : reopen(previous));
        }
        reserveSlot(c.contextId);
        try {
            s = AdapterSession.start(backend, c.contextId, c.root(), policy, logs, launcher, config, previous);
            c.session(s);
        } finally {
            synchronized (slots) {
                starting--;
            }
        }
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
     * Makes room for one more agent process, within ACP_MAX_AGENTS: a free place, else the place of
     * an agent no task holds (stopped now rather than at its idle timeout), else a refusal the task
     * fails with at once, naming the limit. Never a queue: a caller is not kept waiting for a slot
     * that may not come for hours.
     */
    private void reserveSlot(String contextId) throws AdapterStartFailed {
        for (int attempt = 0; attempt < 2; attempt++) {
            synchronized (slots) {
                if (liveAgents() + starting < config.maxAgents()) {
                    starting++;
                    return;
                }
            }
            if (attempt == 0 && !stopOneUnused()) {
                break;
            }
        }
        logs.call("adapter.refused", LogFields.of("contextId", contextId).and("maxAgents", config.maxAgents()).map());
        throw new AdapterStartFailed(new AgentFailure("start", "The bridge already runs " + config.maxAgents()
                + " agents, the most it runs at once (ACP_MAX_AGENTS), and every one of them is working on a task."
                + " Send this again once one of those tasks has finished.", false));
    }

    private int liveAgents() {
        int n = 0;
        for (Conversation c : conversations.values()) {
            if (c.session() != null) {
                n++;
            }
        }
        return n;
    }

    /**
     * Stops the agent that no task holds and was used longest ago (its conversation loses its memory,
     * as after an idle timeout); false when every agent is holding a task.
     *
     * <p>DEFECT: the first unused agent found was stopped, which could be the one whose conversation
     * had just finished a turn and was about to send the next; its memory was lost mid-conversation.
     */
    private boolean stopOneUnused() {
        // Each conversation's time read once: a sort must not see it change under it.
        record LastUse(Conversation conversation, Instant at) {
        }
        List<LastUse> oldestFirst = new ArrayList<>();
        for (Conversation c : conversations.values()) {
            if (c.session() != null) {
                oldestFirst.add(new LastUse(c, c.lastActive()));
            }
        }
        oldestFirst.sort(Comparator.comparing(LastUse::at));
        for (LastUse use : oldestFirst) {
            Conversation c = use.conversation();
            AdapterSession s = c.detachIfIdleSince(clock.instant());
            if (s != null) {
                Integer status = s.stop();
                logs.call("adapter.reap", ids(c.contextId, s).and("why", "ACP_MAX_AGENTS").and("status", status).map());
                return true;
            }
        }
        return false;
    }

    /**
     * Keeps the conversation's new session beside its tasks. A store that cannot keep it costs the
     * conversation its memory after a restart, never the task at hand: logged, not thrown.
     */
    private void keepRecord(Conversation c, AdapterSession s) {
        ConversationRecord record = new ConversationRecord(backend.id(), s.sessionId(), c.root().path().toString());
        c.record(record);
        try {
            records.save(c.contextId, record);
        } catch (RuntimeException e) {
            logs.call("conversation.record_failed", LogFields.of("contextId", c.contextId).and("error", e.toString()).map());
        }
    }

    private ConversationRecord findRecord(String contextId) {
        try {
            return records.find(contextId);
        } catch (RuntimeException e) {
            logs.call("conversation.record_unreadable", LogFields.of("contextId", contextId).and("error", e.toString()).map());
            return null;
        }
    }

    /**
     * The directory a kept conversation worked in: ACP_CWD when one is configured, else the sandbox
     * it had when that is still a directory the bridge created under ACP_SANDBOX_DIR, else a fresh one
     * (and the agent's memory, tied to its directory, is then lost).
     */
    private SessionRoot reopen(ConversationRecord previous) throws AdapterStartFailed {
        if (config.fixedCwd() == null && previous.root() != null) {
            SessionRoot kept = SessionRoot.reopenIn(config.sandboxDir(), Path.of(previous.root()));
            if (kept != null) {
                return kept;
            }
        }
        return newRoot();
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
