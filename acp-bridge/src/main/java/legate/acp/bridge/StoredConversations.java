package legate.acp.bridge;

import java.io.IOException;
import java.io.UncheckedIOException;
import legate.a2a.server.task.TaskStore;
import legate.acp.adapter.ConversationRecord;
import legate.acp.adapter.ConversationRecords;

/**
 * The conversations' records kept in the task store, beside their tasks, as each context's state:
 * what lets a conversation's memory survive a restart of the bridge (session/load with the kept
 * session id and directory).
 */
final class StoredConversations implements ConversationRecords {
    private final TaskStore store;

    StoredConversations(TaskStore store) {
        this.store = store;
    }

    @Override
    public void save(String contextId, ConversationRecord record) {
        store.saveContextState(contextId, record.toJson());
    }

    @Override
    public ConversationRecord find(String contextId) {
        return store.contextState(contextId).map(json -> {
            try {
                return ConversationRecord.fromJson(json);
            } catch (IOException e) {
                throw new UncheckedIOException("the record of context " + contextId + " does not parse", e);
            }
        }).orElse(null);
    }
}
