package legate.mcp.upstream;

/**
 * Why a tool call could not have the agent it names: an alias nobody configured (or none while
 * several are), or a card handshake that failed or took too long. The message is written for the
 * calling model, which reads it in the tool's error result and can try again.
 */
public final class AgentUnavailable extends RuntimeException {
    AgentUnavailable(String message) {
        super(message, null, false, false);
    }
}
