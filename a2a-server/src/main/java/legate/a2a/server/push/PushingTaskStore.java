package legate.a2a.server.push;

import java.util.concurrent.CompletableFuture;
import legate.a2a.server.task.ForwardingTaskStore;
import legate.a2a.server.task.TaskEvent;
import legate.a2a.server.task.TaskStore;

/**
 * The task store as the task runtime sees it when push is on: each append, once the store has it,
 * wakes the webhooks of its task. Every path that changes a task appends (a turn, a cancel, a
 * restart failing an interrupted task), so none of them can forget to notify.
 */
final class PushingTaskStore extends ForwardingTaskStore {
    private final PushDispatcher dispatcher;

    PushingTaskStore(TaskStore store, PushDispatcher dispatcher) {
        super(store);
        this.dispatcher = dispatcher;
    }

    @Override
    public void append(TaskEvent event, boolean durable) {
        store.append(event, durable);
        // Appends of one task come from one thread at a time, so its wakes come in its log's order.
        dispatcher.appended(event.taskId());
    }

    @Override
    public CompletableFuture<Void> appendCommitted(TaskEvent event) {
        CompletableFuture<Void> committed = store.appendCommitted(event);
        dispatcher.appended(event.taskId());
        return committed;
    }
}
