package legate.a2a.server.push;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredPushConfig;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskEvent;
import legate.a2a.server.task.TaskPage;
import legate.a2a.server.task.TaskQuery;
import legate.a2a.server.task.TaskStore;

/**
 * The task store as the task runtime sees it when push is on: each append, once the store has it,
 * wakes the webhooks of its task. Every path that changes a task appends (a turn, a cancel, a
 * restart failing an interrupted task), so none of them can forget to notify.
 */
final class PushingTaskStore implements TaskStore {
    private final TaskStore store;
    private final PushDispatcher dispatcher;

    PushingTaskStore(TaskStore store, PushDispatcher dispatcher) {
        this.store = store;
        this.dispatcher = dispatcher;
    }

    @Override
    public void append(TaskEvent event, boolean durable) {
        store.append(event, durable);
        // Appends of one task come from one thread at a time, so its wakes come in its log's order.
        dispatcher.appended(event.taskId());
    }

    @Override
    public Optional<StoredTask> load(String taskId) {
        return store.load(taskId);
    }

    @Override
    public List<LoggedEvent> eventsAfter(String taskId, long afterSeq) {
        return store.eventsAfter(taskId, afterSeq);
    }

    @Override
    public TaskPage list(TaskQuery query) {
        return store.list(query);
    }

    @Override
    public List<StoredTask> unsettled() {
        return store.unsettled();
    }

    @Override
    public int deleteTerminalBefore(Instant cutoff) {
        return store.deleteTerminalBefore(cutoff);
    }

    @Override
    public Optional<String> contextOwner(String contextId) {
        return store.contextOwner(contextId);
    }

    @Override
    public String claimContext(String contextId, String owner) {
        return store.claimContext(contextId, owner);
    }

    @Override
    public Optional<String> contextState(String contextId) {
        return store.contextState(contextId);
    }

    @Override
    public void saveContextState(String contextId, String state) {
        store.saveContextState(contextId, state);
    }

    @Override
    public void savePushConfig(StoredPushConfig config) {
        store.savePushConfig(config);
    }

    @Override
    public List<StoredPushConfig> pushConfigs(String taskId) {
        return store.pushConfigs(taskId);
    }

    @Override
    public boolean deletePushConfig(String taskId, String configId) {
        return store.deletePushConfig(taskId, configId);
    }

    @Override
    public void savePushProgress(StoredPushConfig progress) {
        store.savePushProgress(progress);
    }

    @Override
    public List<StoredPushConfig> pushConfigsInFlight() {
        return store.pushConfigsInFlight();
    }

    @Override
    public void close() {
        store.close();
    }
}
