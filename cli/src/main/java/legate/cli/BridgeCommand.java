package legate.cli;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import legate.a2a.server.observe.Telemetry;
import legate.acp.adapter.AdapterConfig;
import legate.acp.adapter.AdapterNotInstalled;
import legate.acp.adapter.AdapterStartFailed;
import legate.acp.adapter.Backend;
import legate.acp.adapter.BackendChoice;
import legate.acp.bridge.Bridge;
import legate.acp.bridge.BridgeConfig;
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
    ServerOptions server = new ServerOptions();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (idleTimeoutMs < 1 || startTimeoutMs < 1 || logMaxBytes < 1 || logMaxFiles < 1 || server.maxBodyBytes < 1
                || server.maxTasks < 1) {
            System.err.println("legate bridge: ACP_IDLE_TIMEOUT_MS, ACP_START_TIMEOUT_MS, LOG_MAX_BYTES, LOG_MAX_FILES,"
                    + " MAX_BODY_BYTES and MAX_TASKS must be >= 1");
            return 2;
        }
        if (cwd != null && !Files.isDirectory(cwd)) {
            System.err.println("legate bridge: ACP_CWD must name an existing directory, got " + cwd);
            return 2;
        }
        ServerSetup setup = server.setup();
        if (setup == null) {
            return 2;
        }
        BackendChoice agent = new BackendChoice(backend, agentCmd, mode, claudeBin, codexBin, adapterDirs(),
                System.getenv("PATH"));
        if (!agent.isCommandLine() && mode != null && !mode.isBlank()) {
            System.err.println("legate bridge: ACP_MODE applies to --agent-cmd agents only; " + backend
                    + " runs in its own supervised mode");
        }
        AdapterConfig adapters = new AdapterConfig(sandboxDir.toAbsolutePath(), cwd == null ? null : cwd.toAbsolutePath(),
                Duration.ofMillis(idleTimeoutMs), Duration.ofMillis(startTimeoutMs), STOP_GRACE,
                AdapterConfig.DEFAULT_MAX_LINE_CHARS);
        BridgeConfig config = new BridgeConfig(server.config(setup.rpcPath()), setup.explicitUrl(), server.name, agent,
                adapters, allowExecute, logDir, logMaxBytes, logMaxFiles, Path.of("").toAbsolutePath());
        Telemetry telemetry;
        try {
            telemetry = server.telemetry("legate-bridge");
        } catch (IllegalArgumentException e) {
            System.err.println("legate bridge: " + e.getMessage());
            return 2;
        }
        TaskStore store;
        try {
            store = TaskStores.open(server, spec::commandLine);
        } catch (TaskStores.StoreUnavailable e) {
            System.err.println("legate bridge: " + e.getMessage());
            return 1;
        }
        Bridge bridge;
        try {
            bridge = Bridge.create(config, store, telemetry);
        } catch (IllegalArgumentException e) {
            store.close();
            System.err.println("legate bridge: " + e.getMessage());
            return 2;
        } catch (AdapterNotInstalled e) {
            store.close();
            System.err.println("legate bridge: " + e.getMessage());
            return 1;
        }
        int bound;
        try {
            bound = bridge.start();
        } catch (AdapterStartFailed e) {
            System.err.println("legate bridge: the agent (" + bridge.backend().command().display() + ") cannot start: "
                    + e.getMessage());
            bridge.stop();
            return 1;
        } catch (IOException e) {
            System.err.println("legate bridge: cannot listen on " + server.host + ":" + server.port + ": " + e.getMessage());
            bridge.stop();
            return 1;
        }
        Backend named = bridge.backend();
        System.out.println(bridge.name() + " is listening on " + setup.listeningUrl(bound) + " (A2A 1.0, JSON-RPC)");
        System.out.println("Agent Card: " + URI.create(setup.publicUrl(bound)).resolve("/.well-known/agent-card.json"));
        System.out.println("Agent: " + named.command().display() + (named.supervisedModeId() == null ? ""
                : ", supervised mode '" + named.supervisedModeId() + "'") + "; working directories: "
                + (adapters.fixedCwd() != null ? adapters.fixedCwd() : adapters.sandboxDir() + "/") + "; logs: " + logDir + "/");
        MetricsNotice.print("legate bridge", bridge.server(), server.host);
        System.out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            // SIGTERM: new turns refused, running ones given the grace to finish; then the bridge stops
            // every agent, whole process trees included, before its server.
            bridge.drain(Duration.ofMillis(server.shutdownGraceMs));
            telemetry.tracing().close();
            stopped.countDown();
        }, "legate-shutdown"));
        bridge.join();
        stopped.await();
        return 0;
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
