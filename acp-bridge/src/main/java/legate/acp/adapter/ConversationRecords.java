package legate.acp.adapter;

/**
 * Where the bridge keeps a {@link ConversationRecord} each time a conversation gets a new ACP
 * session, and finds it again when the conversation's agent must be started anew (after an idle reap
 * or a restart): the task store's context state, in the running bridge.
 */
public interface ConversationRecords {
    /** Keeps nothing: a registry used only to probe an agent, or a test that does not look. */
    ConversationRecords NONE = new ConversationRecords() {
        @Override
        public void save(String contextId, ConversationRecord record) {
        }

        @Override
        public ConversationRecord find(String contextId) {
            return null;
        }
    };

    void save(String contextId, ConversationRecord record);

    /** The record kept for {@code contextId}, or null when there is none (or it cannot be read). */
    ConversationRecord find(String contextId);
}
