package legate.acp.bridge;

import java.time.Clock;
import java.time.Duration;
import legate.a2a.server.AgentServer;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.observe.Telemetry;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.InstanceGroup;
import legate.a2a.server.task.TaskStore;
import legate.acp.adapter.AdapterNotInstalled;
import legate.acp.adapter.AdapterRegistry;
import legate.acp.adapter.AdapterStartFailed;
import legate.acp.adapter.Backend;
import legate.acp.connection.ProcessLauncher;
import legate.acp.log.BridgeLogs;
import legate.acp.log.BridgeTelemetry;
import legate.acp.permission.PermissionRules;
import legate.acp.permission.PolicyFileError;
import legate.acp.protocol.InitializeResponse;
import legate.wire.http.BindAddress;

/**
 * The bridge: an A2A server with an ACP agent behind it, one agent process per conversation.
 * {@link #create} it from a {@link BridgeConfig}, {@link #start()} it (which returns the bound port),
 * {@link #stop()} it.
 *
 * <p>The order of start-up is part of the contract. Creating looks the agent up, and starts
 * nothing. Starting runs the agent once to read its answer to {@code initialize}, because the Agent
 * Card is built from that answer: an agent that cannot start stops the bridge before it listens.
 * Then the server binds, then the idle reaper runs. Stopping takes every agent down first, whole
 * process trees included, then the server, then the logs: the server may wait for open
 * connections, and a supervisor's SIGKILL after that wait must not find an agent still running.
 */
public final class Bridge {
    private final BridgeConfig config;
    private final Backend backend;
    private final ProcessLauncher launcher;
    private final Clock clock;
    private final BridgeLogs logs;
    private final PermissionRules policy;
    private final TaskStore store;
    private final Telemetry telemetry;
    private final InstanceGroup group;
    private volatile AdapterRegistry agents;
    private volatile AgentServer server;
    private volatile Backend named;
    private volatile String name;

    private Bridge(BridgeConfig config, Backend backend, ProcessLauncher launcher, Clock clock, TaskStore store,
                   InstanceGroup group, Telemetry telemetry) throws PolicyFileError {
        this.group = group;
        this.telemetry = telemetry;
        this.config = config;
        this.store = store;
        this.backend = backend.withEnvironment(config.agentEnv(), config.withheldEnv());
        this.launcher = launcher;
        this.clock = clock;
        BridgeConfig.Supervision s = config.supervision();
        // A policy file that cannot be used stops the bridge before anything starts.
        this.policy = s.policyFile() == null
                ? PermissionRules.builtIn(backend.supervisedModeId(), config.allowExecute(), s.ask())
                : PermissionRules.load(s.policyFile(), backend.supervisedModeId(), config.allowExecute(), s.ask());
        this.logs = new BridgeLogs(config.logDir(), config.logMaxBytes(), config.logMaxFiles(), clock, System.err,
                config.console(), config.verbose());
    }

    /**
     * A bridge whose agents are real children of this JVM, on the system clock.
     *
     * @throws IllegalArgumentException when the settings name no agent (an unknown backend, an empty command line)
     * @throws AdapterNotInstalled when a known backend's adapter is nowhere the lookup searches
     * @throws PolicyFileError when ACP_POLICY names a file that cannot be used (its message names file, line and field)
     */
    public static Bridge create(BridgeConfig config) throws AdapterNotInstalled, PolicyFileError {
        return create(config, new InMemoryTaskStore());
    }

    /**
     * The same, keeping its tasks in {@code store}, which the bridge owns from then on: its server
     * closes it when it stops.
     */
    public static Bridge create(BridgeConfig config, TaskStore store) throws AdapterNotInstalled, PolicyFileError {
        return create(config, store, InstanceGroup.ALONE);
    }

    /**
     * The same, as one instance of {@code group}, several bridges sharing {@code store} (README
     * "Several instances"): each conversation's agent runs on the instance that holds it.
     */
    public static Bridge create(BridgeConfig config, TaskStore store, InstanceGroup group)
            throws AdapterNotInstalled, PolicyFileError {
        return create(config, store, group, Telemetry.DEFAULT);
    }

    /** The same, serving /metrics and tracing as {@code telemetry} says. */
    public static Bridge create(BridgeConfig config, TaskStore store, Telemetry telemetry)
            throws AdapterNotInstalled, PolicyFileError {
        return create(config, store, InstanceGroup.ALONE, telemetry);
    }

    /** The same, as one instance of {@code group}, serving /metrics and tracing as {@code telemetry} says. */
    public static Bridge create(BridgeConfig config, TaskStore store, InstanceGroup group, Telemetry telemetry)
            throws AdapterNotInstalled, PolicyFileError {
        return new Bridge(config, config.agent().resolve(), ProcessLauncher.system(), Clock.systemUTC(), store, group,
                telemetry);
    }

    /** A bridge that starts its agents through {@code launcher}: the seam for tests. */
    public static Bridge create(BridgeConfig config, ProcessLauncher launcher, Clock clock)
            throws AdapterNotInstalled, PolicyFileError {
        return create(config, new InMemoryTaskStore(), launcher, clock);
    }

    /** The same, keeping its tasks and its conversations' records in {@code store}. */
    public static Bridge create(BridgeConfig config, TaskStore store, ProcessLauncher launcher, Clock clock)
            throws AdapterNotInstalled, PolicyFileError {
        return new Bridge(config, config.agent().resolve(), launcher, clock, store, InstanceGroup.ALONE,
                Telemetry.DEFAULT);
    }

    /**
     * Reads the agent's answer to {@code initialize}, builds the card from it, binds and starts
     * serving; returns the bound port. A failed start leaves nothing running.
     *
     * @throws AdapterStartFailed when the agent cannot be started or does not answer; the message says why
     * @throws java.io.IOException when the port cannot be bound
     */
    public synchronized int start() throws Exception {
        InitializeResponse init;
        try {
            init = new AdapterRegistry(backend, config.adapters(), launcher, policy, logs, clock).probe(config.probeDir());
        } catch (AdapterStartFailed e) {
            logs.close();
            throw e;
        }
        Backend agent = backend.namedBy(init);
        // The conversation's session and root beside its tasks, for session/load after a restart.
        ServerMetrics metrics = new ServerMetrics();
        AdapterRegistry registry = new AdapterRegistry(agent, config.adapters(), launcher, policy, logs, clock,
                new StoredConversations(store), new BridgeTelemetry(metrics.registry(), telemetry.tracing(), agent.id()));
        AgentServer a2a = AgentServer.create(config.server(),
                port -> BridgeCard.build(agent, init, config.name(), publicUrl(port)),
                new AcpExecutor(registry, config.supervision().askTimeout()),
                store, clock, telemetry, metrics, group);
        int port;
        try {
            port = a2a.start();
        } catch (Exception e) {
            logs.close();
            throw e;
        }
        registry.startReaper();
        this.named = agent;
        this.name = config.name() == null || config.name().isBlank() ? BridgeCard.defaultName(agent, init) : config.name();
        this.agents = registry;
        this.server = a2a;
        return port;
    }

    /** The A2A server, once started (null before): its /metrics, its port. */
    public AgentServer server() {
        return server;
    }

    /** The URL the card gives clients: the configured public URL, else this machine's URL of the bound port. */
    private String publicUrl(int port) {
        return config.publicUrl() != null ? config.publicUrl()
                : BindAddress.dialableUrl(config.server().edge().tls() != null, config.server().host(), port, "/");
    }

    /** The agent behind the bridge, named after its own answer to initialize once started. */
    public Backend backend() {
        return named != null ? named : backend;
    }

    /** The name in the Agent Card; null before {@link #start()}. */
    public String name() {
        return name;
    }

    /**
     * Stops every agent (close stdin, wait, SIGTERM, wait, SIGKILL, each step taking the whole
     * process tree), then the server (which closes the task store), then the logs. Safe to call more
     * than once, and before or after a failed start.
     */
    /**
     * A stop that lets work finish, as a SIGTERM asks: new turns are refused, the running ones get
     * {@code grace} to end, then the agents stop, then the server, ending its streams cleanly.
     *
     * @return whether every running turn ended within the grace
     */
    public boolean drain(Duration grace) {
        AgentServer a2a = server;
        boolean ended = true;
        if (a2a != null && a2a.handler() != null) {
            a2a.handler().drain();
            try {
                ended = a2a.handler().awaitTurnsEnded(grace);
            } catch (InterruptedException e) {
                ended = false;
                Thread.currentThread().interrupt();
            }
            AdapterRegistry registry = agents;
            if (registry != null) {
                registry.close();
            }
            try {
                a2a.drain(Duration.ZERO);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                // Stopping anyway: Jetty closes what it could not stop gracefully.
            }
        }
        stop();
        return ended;
    }

    public void stop() {
        AdapterRegistry registry = agents;
        if (registry != null) {
            registry.close();
        }
        AgentServer a2a = server;
        if (a2a == null) {
            store.close();
        } else {
            try {
                a2a.stop();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                // Stopping anyway: Jetty closes what it could not stop gracefully.
            }
        }
        logs.close();
    }

    /** Blocks until the server stops. */
    public void join() throws InterruptedException {
        AgentServer a2a = server;
        if (a2a == null) {
            throw new IllegalStateException("the bridge was not started");
        }
        a2a.join();
    }
}
