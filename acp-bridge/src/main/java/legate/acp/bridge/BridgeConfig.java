package legate.acp.bridge;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import legate.a2a.server.ServerConfig;
import legate.acp.adapter.AdapterConfig;
import legate.acp.adapter.BackendChoice;
import legate.acp.connection.EnvironmentNames;

/**
 * How a {@link Bridge} runs: the A2A server it opens, the agent behind it, and how that agent is
 * run, supervised and logged.
 *
 * @param server where the A2A server listens and what it accepts
 * @param publicUrl the URL the Agent Card tells clients to dial; null for {@code http://HOST:PORT/} of the bound port
 * @param name replaces the card's name outright (AGENT_NAME); null or blank keeps the agent's own
 * @param agent which ACP agent runs behind the server
 * @param adapters how its processes are started, kept and stopped
 * @param allowExecute whether commands and fetches are allowed in a shared ACP_CWD directory (sandboxes always allow them)
 * @param logDir where calls.jsonl and work.jsonl are written
 * @param logMaxBytes the size at which a log file is rotated
 * @param logMaxFiles the files kept per log, the live one included
 * @param probeDir where the agent is started once, before the server listens, to read its answer to initialize
 * @param supervision how permission requests are decided: the policy, and whether the caller is asked
 * @param agentEnv variables added to the agent's environment (the keys of {@code .env}); the backend's
 *     own removals (IS_SANDBOX for claude-agent-acp) still apply
 * @param console where each task's steps are shown, one line each; null for nowhere
 * @param verbose true to show the agents' stderr on the console too
 * @param withheldEnv variables the agent never gets, from the bridge's environment or from {@code agentEnv}:
 *     Legate's own settings and secrets
 */
public record BridgeConfig(ServerConfig server, String publicUrl, String name, BackendChoice agent,
                           AdapterConfig adapters, boolean allowExecute, Path logDir, long logMaxBytes, int logMaxFiles,
                           Path probeDir, Supervision supervision, Map<String, String> agentEnv, PrintStream console,
                           boolean verbose, EnvironmentNames withheldEnv) {

    public BridgeConfig {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(adapters, "adapters");
        Objects.requireNonNull(logDir, "logDir");
        Objects.requireNonNull(probeDir, "probeDir");
        Objects.requireNonNull(supervision, "supervision");
        agentEnv = Map.copyOf(agentEnv);
        Objects.requireNonNull(withheldEnv, "withheldEnv");
    }

    /** A bridge whose agent inherits the whole of the bridge's environment: for tests that set no secrets. */
    public BridgeConfig(ServerConfig server, String publicUrl, String name, BackendChoice agent,
                        AdapterConfig adapters, boolean allowExecute, Path logDir, long logMaxBytes, int logMaxFiles,
                        Path probeDir, Supervision supervision, Map<String, String> agentEnv, PrintStream console,
                        boolean verbose) {
        this(server, publicUrl, name, agent, adapters, allowExecute, logDir, logMaxBytes, logMaxFiles, probeDir,
                supervision, agentEnv, console, verbose, EnvironmentNames.NONE);
    }

    /** A bridge that decides inside by the built-in policy, adds nothing to the agent's environment and shows no steps. */
    public BridgeConfig(ServerConfig server, String publicUrl, String name, BackendChoice agent, AdapterConfig adapters,
                        boolean allowExecute, Path logDir, long logMaxBytes, int logMaxFiles, Path probeDir) {
        this(server, publicUrl, name, agent, adapters, allowExecute, logDir, logMaxBytes, logMaxFiles, probeDir,
                Supervision.DEFAULT, Map.of(), null, false);
    }

    /**
     * How the bridge decides the agent's permission requests.
     *
     * @param ask ACP_PERMISSIONS=ask: a request the policy says to ask is put to the A2A caller
     * @param policyFile ACP_POLICY: the rules, or null for the built-in policy
     * @param askTimeout ACP_ASK_TIMEOUT_MS: how long a question waits for the caller
     */
    public record Supervision(boolean ask, Path policyFile, Duration askTimeout) {
        public static final Supervision DEFAULT = new Supervision(false, null, AcpExecutor.DEFAULT_ASK_TIMEOUT);

        public Supervision {
            Objects.requireNonNull(askTimeout, "askTimeout");
        }
    }
}
