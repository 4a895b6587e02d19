package legate.acp.adapter;

/**
 * Where the bridge keeps a {@link ConversationRecord} each time a conversation gets a new ACP
 * session: the task store, through {@code TaskStore.saveContextState}, in the running bridge.
 */
@FunctionalInterface
public interface ConversationRecords {
    /** Keeps nothing: a registry used only to probe an agent, or a test that does not look. */
    ConversationRecords NONE = (contextId, record) -> {
    };

    void save(String contextId, ConversationRecord record);
}
