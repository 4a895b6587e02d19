package legate.acp.adapter;

import java.util.HashMap;
import java.util.Map;
import legate.acp.connection.AdapterCommand;
import legate.acp.connection.EnvironmentNames;
import legate.acp.protocol.Implementation;
import legate.acp.protocol.InitializeResponse;

/**
 * The ACP agent behind the bridge: how to start it, the session mode that keeps it supervised, and
 * what to tell a caller when it is not logged in.
 *
 * @param id {@code claude}, {@code codex}, or {@code acp} for any other agent; the card's skill tag
 * @param label the agent's name in the card ("Claude"); null to take the title from its agentInfo
 * @param command the program and arguments, no shell involved
 * @param supervisedModeId the mode selected after session/new; null for an agent given no mode
 * @param loginHint how to log this agent in, in plain words
 */
public record Backend(String id, String label, AdapterCommand command, String supervisedModeId, String loginHint) {
    public static final String CLAUDE = "claude";
    public static final String CODEX = "codex";
    public static final String GENERIC = "acp";

    /**
     * This backend named after the agent's own answer to initialize (its agentInfo title, else its
     * name) when it has no label of its own: how a generic ACP agent gets a name.
     */
    public Backend namedBy(InitializeResponse init) {
        Implementation info = init.agentInfo();
        if (label != null || info == null || info.displayName().isBlank()) {
            return this;
        }
        return new Backend(id, info.displayName(), command, supervisedModeId, loginHint);
    }

    /**
     * This backend with {@code env} added to its agent's environment (the keys of {@code .env}, so an
     * ANTHROPIC_API_KEY or OPENAI_API_KEY written there reaches the agent), minus what the backend
     * removes because it breaks the adapter (IS_SANDBOX for claude-agent-acp).
     */
    public Backend withEnvironment(Map<String, String> env) {
        return withEnvironment(env, EnvironmentNames.NONE);
    }

    /**
     * The same, and the agent never inherits {@code withheld}, whether the bridge's environment or
     * {@code env} holds it: Legate's own settings (DATABASE_URL, MCP_TOKEN, A2A_CLIENT_SECRET...) are
     * no business of the agent's.
     */
    public Backend withEnvironment(Map<String, String> env, EnvironmentNames withheld) {
        if (env.isEmpty() && withheld.equals(EnvironmentNames.NONE)) {
            return this;
        }
        Map<String, String> set = new HashMap<>(env);
        set.keySet().removeIf(k -> command.unsetEnv().contains(k) || withheld.contains(k));
        set.putAll(command.setEnv());
        return new Backend(id, label, new AdapterCommand(command.argv(), command.unsetEnv(), set, withheld),
                supervisedModeId, loginHint);
    }

    /** The backend's name for people, falling back to the program when there is no label. */
    public String displayName() {
        return label != null ? label : command.program();
    }
}
