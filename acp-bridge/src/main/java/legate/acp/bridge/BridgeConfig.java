package legate.acp.bridge;

import java.nio.file.Path;
import java.util.Objects;
import legate.a2a.server.ServerConfig;
import legate.acp.adapter.AdapterConfig;
import legate.acp.adapter.BackendChoice;

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
 */
public record BridgeConfig(ServerConfig server, String publicUrl, String name, BackendChoice agent,
                           AdapterConfig adapters, boolean allowExecute, Path logDir, long logMaxBytes, int logMaxFiles,
                           Path probeDir) {

    public BridgeConfig {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(agent, "agent");
        Objects.requireNonNull(adapters, "adapters");
        Objects.requireNonNull(logDir, "logDir");
        Objects.requireNonNull(probeDir, "probeDir");
    }
}
