package legate.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import legate.acp.adapter.AdapterConfig;
import legate.acp.adapter.AdapterNotInstalled;
import legate.acp.adapter.AdapterStartFailed;
import legate.acp.adapter.Backend;
import legate.acp.adapter.BackendChoice;
import legate.acp.bridge.Bridge;
import legate.acp.bridge.BridgeConfig;
import legate.acp.connection.EnvironmentNames;
import legate.acp.permission.PolicyFileError;
import legate.a2a.server.task.TaskStore;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code legate bridge}: the A2A server with a real coding agent behind it over ACP. */
@Command(name = "bridge", mixinStandardHelpOptions = true,
        description = {"Serve Claude Code, Codex or any ACP agent over A2A v1.0 JSON-RPC.",
                "The Agent Card is named after the agent: Claude (via ACP), Codex (via ACP) or <agent title> (via ACP).",
                "Each option can also be set by the environment variable named in brackets, or in a .env file."})
final class BridgeCommand implements Callable<Integer> {
    private static final Duration STOP_GRACE = Duration.ofSeconds(2);

    /** What {@code .env} sets beyond the environment: added to the agent's environment, Legate's own keys left out. */
    private final Map<String, String> dotenv;
    /** The keys Legate itself reads, found only when the bridge starts (it costs a parse of every command). */
    private final Supplier<EnvironmentNames> ownKeys;

    BridgeCommand(Map<String, String> dotenv, Supplier<EnvironmentNames> ownKeys) {
        this.dotenv = dotenv;
        this.ownKeys = ownKeys;
    }

    /** The permission modes of ACP_PERMISSIONS. */
    enum Permissions { POLICY, ASK }

    @Option(names = "--permissions", descriptionKey = "ACP_PERMISSIONS", defaultValue = "policy",
            description = "policy: every permission request is decided inside the bridge; ask: a request the policy says to ask"
                    + " is put to the A2A caller [ACP_PERMISSIONS] (default: ${DEFAULT-VALUE}).")
    Permissions permissions;

    @Option(names = "--policy", descriptionKey = "ACP_POLICY",
            description = "A YAML or JSON file of permission rules; the built-in policy when unset [ACP_POLICY].")
    Path policy;

    @Option(names = "--ask-timeout-ms", descriptionKey = "ACP_ASK_TIMEOUT_MS", defaultValue = "600000",
            description = "How long a question waits for the caller before it is refused [ACP_ASK_TIMEOUT_MS] (default: ${DEFAULT-VALUE}).")
    long askTimeoutMs;

    @Option(names = "--verbose", descriptionKey = "LEGATE_VERBOSE", defaultValue = "false", arity = "0..1",
            description = "Show the agents' stderr on the console too (it always goes to LOG_DIR/agent-stderr.log) [LEGATE_VERBOSE].")
    boolean verbose;

    @Option(names = "--backend", descriptionKey = "ACP_AGENT", defaultValue = "claude",
            description = "Known agent to run: claude or codex [ACP_AGENT] (default: ${DEFAULT-VALUE}).")
    String backend;

    @Option(names = "--agent-cmd", descriptionKey = "ACP_AGENT_CMD",
            description = "Any ACP agent's command line, split like a shell would (no shell runs); wins over --backend [ACP_AGENT_CMD].")
    String agentCmd;

    @Option(names = "--mode", descriptionKey = "ACP_MODE",
            description = "Supervised session mode of the --agent-cmd agent; none selected when unset [ACP_MODE]. claude uses default, codex read-only.")
    String mode;

    @Option(names = "--claude-bin", descriptionKey = "ACP_CLAUDE_BIN",
            description = "Path to claude-agent-acp (its dist/index.js or an executable) [ACP_CLAUDE_BIN] (default: adapters/, then PATH).")
    Path claudeBin;

    @Option(names = "--codex-bin", descriptionKey = "ACP_CODEX_BIN",
            description = "Path to the codex-acp binary [ACP_CODEX_BIN] (default: adapters/, then PATH).")
    Path codexBin;

    @Option(names = "--sandbox-dir", descriptionKey = "ACP_SANDBOX_DIR", defaultValue = ".acp-sandboxes",
            description = "Where each conversation gets a fresh working directory [ACP_SANDBOX_DIR] (default: ${DEFAULT-VALUE}).")
    Path sandboxDir;

    @Option(names = "--cwd", descriptionKey = "ACP_CWD",
            description = "An existing directory every conversation works in instead of a sandbox [ACP_CWD].")
    Path cwd;

    @Option(names = "--allow-execute", descriptionKey = "ACP_ALLOW_EXECUTE", defaultValue = "false", arity = "0..1",
            description = "Allow commands, fetches and other actions in an ACP_CWD directory [ACP_ALLOW_EXECUTE] (default: ${DEFAULT-VALUE}; sandboxes always allow them).")
    boolean allowExecute;

    @Option(names = "--idle-timeout-ms", descriptionKey = "ACP_IDLE_TIMEOUT_MS", defaultValue = "300000",
            description = "Stop a conversation's agent after this long without an open task [ACP_IDLE_TIMEOUT_MS] (default: ${DEFAULT-VALUE}).")
    long idleTimeoutMs;

    @Option(names = "--max-agents", descriptionKey = "ACP_MAX_AGENTS", defaultValue = "8",
            description = "Most agent processes at once; a task that needs one more fails at once, naming the limit [ACP_MAX_AGENTS] (default: ${DEFAULT-VALUE}).")
    int maxAgents;

    @Option(names = "--start-timeout-ms", descriptionKey = "ACP_START_TIMEOUT_MS", defaultValue = "60000",
            description = "Longest wait for each start-up step of an agent (initialize, session/new, set_mode) [ACP_START_TIMEOUT_MS] (default: ${DEFAULT-VALUE}).")
    long startTimeoutMs;

    @Option(names = "--log-dir", descriptionKey = "LOG_DIR", defaultValue = "logs",
            description = "Where calls.jsonl and work.jsonl are written [LOG_DIR] (default: ${DEFAULT-VALUE}).")
    Path logDir;

    @Option(names = "--log-max-bytes", descriptionKey = "LOG_MAX_BYTES", defaultValue = "5242880",
            description = "Size at which a log file is rotated [LOG_MAX_BYTES] (default: ${DEFAULT-VALUE}).")
    long logMaxBytes;

    @Option(names = "--log-max-files", descriptionKey = "LOG_MAX_FILES", defaultValue = "5",
            description = "Files kept per log, the live one included [LOG_MAX_FILES] (default: ${DEFAULT-VALUE}).")
    int logMaxFiles;

    @Mixin
    ServerOptions server = new ServerOptions("bridge", SecurityOptions.BRIDGE_MAX_TASKS_PER_PRINCIPAL);

    @Mixin
    EdgeOptions edge = new EdgeOptions();

    @Mixin
    PushOptions push = new PushOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (askTimeoutMs < 1) {
            System.err.println("legate bridge: ACP_ASK_TIMEOUT_MS must be >= 1");
            return 2;
        }
        if (idleTimeoutMs < 1 || startTimeoutMs < 1 || logMaxBytes < 1 || logMaxFiles < 1 || server.maxBodyBytes < 1
                || server.maxTasks < 1 || maxAgents < 1) {
            System.err.println("legate bridge: ACP_IDLE_TIMEOUT_MS, ACP_START_TIMEOUT_MS, LOG_MAX_BYTES, LOG_MAX_FILES,"
                    + " MAX_BODY_BYTES, MAX_TASKS and ACP_MAX_AGENTS must be >= 1");
            return 2;
        }
        if (cwd != null && !Files.isDirectory(cwd)) {
            System.err.println("legate bridge: ACP_CWD must name an existing directory, got " + cwd);
            return 2;
        }
        try {
            return serve();
        } catch (ServerStart.Refused e) {
            return e.report("legate bridge");
        }
    }

    private int serve() throws Exception {
        // DEFECT (issue 30): the agent's environment is scrubbed of Legate's secrets, but one given as
        // a flag was readable by it (and by every user) in the bridge's /proc/PID/cmdline, unsaid.
        server.secretsOnCommandLine(spec.commandLine().getParseResult(), "legate bridge").forEach(System.err::println);
        ServerStart.Prepared prepared = ServerStart.prepare(server, edge, push, "legate-bridge");
        ServerSetup setup = prepared.setup();
        BackendChoice agent = new BackendChoice(backend, agentCmd, mode, claudeBin, codexBin, adapterDirs(),
                System.getenv("PATH"));
        if (!agent.isCommandLine() && mode != null && !mode.isBlank()) {
            System.err.println("legate bridge: ACP_MODE applies to --agent-cmd agents only; " + backend
                    + " runs in its own supervised mode");
        }
        AdapterConfig adapters = new AdapterConfig(sandboxDir.toAbsolutePath(), cwd == null ? null : cwd.toAbsolutePath(),
                Duration.ofMillis(idleTimeoutMs), Duration.ofMillis(startTimeoutMs), STOP_GRACE,
                AdapterConfig.DEFAULT_MAX_LINE_CHARS, maxAgents);
        BridgeConfig config = new BridgeConfig(prepared.served(), setup.explicitUrl(), server.name, agent,
                adapters, allowExecute, logDir, logMaxBytes, logMaxFiles, Path.of("").toAbsolutePath(),
                new BridgeConfig.Supervision(permissions == Permissions.ASK, policy, Duration.ofMillis(askTimeoutMs)),
                dotenv, System.out, verbose, ownKeys.get());
        TaskStore store = ServerStart.openStore(server, spec::commandLine);
        Bridge bridge;
        try {
            bridge = Bridge.create(config, store, ServerStart.group(store, server, setup, spec::commandLine),
                    prepared.telemetry());
        } catch (IllegalArgumentException | PolicyFileError e) {
            store.close();
            throw new ServerStart.Refused(2, e.getMessage());
        } catch (AdapterNotInstalled e) {
            store.close();
            throw new ServerStart.Refused(1, e.getMessage());
        }
        int bound = ServerStart.listen(server, () -> {
            try {
                return bridge.start();
            } catch (AdapterStartFailed e) {
                throw new ServerStart.Refused(1, "the agent (" + bridge.backend().command().display()
                        + ") cannot start: " + e.getMessage());
            }
        }, bridge::stop);
        // On SIGTERM the bridge stops every agent, whole process trees included, before its server.
        ServerStart.Stopping stopping = ServerStart.stopping(server, bridge::drain, prepared.telemetry(), "legate bridge");
        Backend named = bridge.backend();
        ServerOptions.printStarted(bridge.name(), setup, bound, prepared.config().bindings(), bridge.server());
        System.out.println("Agent: " + named.command().display() + (named.supervisedModeId() == null ? ""
                : ", supervised mode '" + named.supervisedModeId() + "'") + "; working directories: "
                + (adapters.fixedCwd() != null ? adapters.fixedCwd() : adapters.sandboxDir() + "/") + "; logs: " + logDir + "/");
        System.out.println("Permissions: " + (policy == null ? "the built-in policy" : "the rules of " + policy)
                + (permissions == Permissions.ASK ? "; what they say to ask is asked of the caller" : ", decided inside"));
        MetricsNotice.print("legate bridge", bridge.server(), server.host);
        System.out.flush();
        return stopping.serve(bridge::join);
    }

    /**
     * Where the project's own npm copy of the adapters may be: adapters/ in the working directory, then
     * adapters/ in the checkout this launcher runs from (cli/target/legate.jar or cli/target/classes).
     */
    static List<Path> adapterDirs() {
        List<Path> dirs = new ArrayList<>();
        dirs.add(Path.of("adapters").toAbsolutePath());
        try {
            Path here = Path.of(BridgeCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path cliModule = here.getParent() == null ? null : here.getParent().getParent();
            if (cliModule != null && cliModule.getParent() != null) {
                dirs.add(cliModule.getParent().resolve("adapters"));
            }
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            // only the working directory's adapters/ and PATH are searched then
        }
        return dirs;
    }
}
