package legate.a2a.server.observe;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import legate.a2a.server.task.ForwardingTaskStore;
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
public final class TimedTaskStore extends ForwardingTaskStore {
    private final ServerMetrics metrics;

    public TimedTaskStore(TaskStore store, ServerMetrics metrics) {
        super(store);
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

    /** Timed as an append: the caller waits for the queueing, not for the commit. */
    @Override
    public CompletableFuture<Void> appendCommitted(TaskEvent event) {
        long start = System.nanoTime();
        try {
            return store.appendCommitted(event);
        } finally {
            metrics.storeAppend(false, System.nanoTime() - start);
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
    public Optional<String> contextOwner(String contextId) {
        long start = System.nanoTime();
        try {
            return store.contextOwner(contextId);
        } finally {
            metrics.storeRead(System.nanoTime() - start);
        }
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
}
