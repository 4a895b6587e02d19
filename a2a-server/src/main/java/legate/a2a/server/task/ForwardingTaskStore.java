package legate.a2a.server.task;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A task store that hands every call to another: the base of the stores that add one concern to a
 * store (timing each read, waking webhooks after an append) and override only the calls that concern
 * touches. A call {@link TaskStore} gains later is forwarded here once, not in every wrapper.
 *
 * <p>One exception: {@link #appendCommitted} is not forwarded. Its default goes through this
 * wrapper's own {@link #append}, durably, so a wrapper that overrides only {@code append} still
 * sees every event; a wrapper that forwards it (timing, webhooks) lets the inner store's commit
 * run behind the caller's back.
 */
public abstract class ForwardingTaskStore implements TaskStore {
    /** The store every call not overridden goes to. */
    protected final TaskStore store;

    protected ForwardingTaskStore(TaskStore store) {
        this.store = store;
    }

    @Override
    public Optional<StoredTask> load(String taskId) {
        return store.load(taskId);
    }

    @Override
    public void append(TaskEvent event, boolean durable) {
        store.append(event, durable);
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
