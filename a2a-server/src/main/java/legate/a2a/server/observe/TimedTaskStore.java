package legate.a2a.server.observe;

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
 * A {@link TaskStore} whose appends and reads are timed into {@link ServerMetrics}, whatever keeps
 * the tasks (memory, SQLite, PostgreSQL). An append that asks for durability includes its commit.
 */
public final class TimedTaskStore implements TaskStore {
    private final TaskStore store;
    private final ServerMetrics metrics;

    public TimedTaskStore(TaskStore store, ServerMetrics metrics) {
        this.store = store;
        this.metrics = metrics;
    }

    @Override
    public Optional<StoredTask> load(String taskId) {
        long start = System.nanoTime();
        try {
            return store.load(taskId);
        } finally {
            metrics.storeRead(System.nanoTime() - start);
        }
    }

    @Override
    public void append(TaskEvent event, boolean durable) {
        long start = System.nanoTime();
        try {
            store.append(event, durable);
        } finally {
            metrics.storeAppend(durable, System.nanoTime() - start);
        }
    }

    @Override
    public List<LoggedEvent> eventsAfter(String taskId, long afterSeq) {
        long start = System.nanoTime();
        try {
            return store.eventsAfter(taskId, afterSeq);
        } finally {
            metrics.storeRead(System.nanoTime() - start);
        }
    }

    @Override
    public TaskPage list(TaskQuery query) {
        long start = System.nanoTime();
        try {
            return store.list(query);
        } finally {
            metrics.storeRead(System.nanoTime() - start);
        }
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
        long start = System.nanoTime();
        try {
            return store.contextOwner(contextId);
        } finally {
            metrics.storeRead(System.nanoTime() - start);
        }
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
        long start = System.nanoTime();
        try {
            return store.pushConfigs(taskId);
        } finally {
            metrics.storeRead(System.nanoTime() - start);
        }
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
