package legate.acp.adapter;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How the bridge runs its agents.
 *
 * @param sandboxDir where each conversation gets a fresh directory (ACP_SANDBOX_DIR)
 * @param fixedCwd an existing directory every conversation works in instead (ACP_CWD), or null
 * @param idleTimeout how long a conversation with no open task keeps its agent (ACP_IDLE_TIMEOUT_MS)
 * @param startTimeout the longest wait for each handshake step (initialize, session/new, set_mode)
 * @param stopGrace how long each polite step of stopping an agent waits before the next, stronger one
 * @param maxLineChars the longest line accepted from an agent's stdout
 * @param maxAgents the most agent processes running at once (ACP_MAX_AGENTS)
 */
public record AdapterConfig(Path sandboxDir, Path fixedCwd, Duration idleTimeout, Duration startTimeout,
                           Duration stopGrace, int maxLineChars, int maxAgents) {
    public static final int DEFAULT_MAX_LINE_CHARS = 16 * 1024 * 1024;
    /** ACP_MAX_AGENTS' default: a coding agent is a process tree of a few hundred MB. */
    public static final int DEFAULT_MAX_AGENTS = 8;

    public AdapterConfig {
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("the idle timeout must be positive");
        }
        if (maxAgents < 1) {
            throw new IllegalArgumentException("ACP_MAX_AGENTS must be at least 1, got " + maxAgents);
        }
    }

    /** At most {@link #DEFAULT_MAX_AGENTS} agents at once. */
    public AdapterConfig(Path sandboxDir, Path fixedCwd, Duration idleTimeout, Duration startTimeout,
                         Duration stopGrace, int maxLineChars) {
        this(sandboxDir, fixedCwd, idleTimeout, startTimeout, stopGrace, maxLineChars, DEFAULT_MAX_AGENTS);
    }
}
