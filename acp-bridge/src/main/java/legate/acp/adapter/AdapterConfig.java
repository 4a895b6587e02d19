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
 */
public record AdapterConfig(Path sandboxDir, Path fixedCwd, Duration idleTimeout, Duration startTimeout,
                           Duration stopGrace, int maxLineChars) {
    public static final int DEFAULT_MAX_LINE_CHARS = 16 * 1024 * 1024;

    public AdapterConfig {
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("the idle timeout must be positive");
        }
    }
}
