package legate.a2a.server.task;

import com.google.protobuf.util.Timestamps;
import java.time.Instant;
import legate.a2a.model.A2aError;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.ListTasksResponse;
import lf.a2a.v1.Task;

/**
 * GetTask and ListTasks (A2A §3.1.3, §3.1.4): tasks as stored, shaped by what the caller asked for
 * (history length, artifacts, paging). Cancelling and subscribing read tasks through it too.
 */
final class TaskReading {
    private static final int DEFAULT_PAGE_SIZE = 50;

    private final TaskStore store;

    TaskReading(TaskStore store) {
        this.store = store;
    }

    Task getTask(GetTaskRequest request, String owner) {
        return new HistoryLength(request.hasHistoryLength(), request.getHistoryLength())
                .applyTo(find(request.getId(), owner));
    }

    /** The caller's own tasks only: another principal's tasks are not there for it. */
    ListTasksResponse listTasks(ListTasksRequest request, String owner) {
        int pageSize = request.hasPageSize() ? request.getPageSize() : DEFAULT_PAGE_SIZE;
        if (pageSize < 1 || pageSize > 100) {
            // PROTOCOL (A2A §3.1.4): pageSize is 1..100; outside is invalid params, not a clamp.
            throw A2aError.INVALID_PARAMS.exception("pageSize must be between 1 and 100, got " + pageSize);
        }
        Instant after = request.hasStatusTimestampAfter()
                ? Instant.ofEpochMilli(Timestamps.toMillis(request.getStatusTimestampAfter())) : null;
        TaskPage page;
        try {
            page = store.list(new TaskQuery(request.getContextId(), request.getStatus(), after, pageSize,
                    request.getPageToken(), owner));
        } catch (IllegalArgumentException e) {
            throw A2aError.INVALID_PARAMS.exception(e.getMessage());
        }
        boolean artifacts = request.hasIncludeArtifacts() && request.getIncludeArtifacts();
        HistoryLength history = new HistoryLength(request.hasHistoryLength(), request.getHistoryLength());
        ListTasksResponse.Builder out = ListTasksResponse.newBuilder()
                .setNextPageToken(page.nextPageToken())
                .setPageSize(pageSize)
                .setTotalSize(page.totalSize());
        for (Task t : page.tasks()) {
            Task shown = history.applyTo(t);
            // PROTOCOL (A2A §3.1.4): artifacts are omitted entirely unless includeArtifacts is true.
            out.addTasks(artifacts ? shown : shown.toBuilder().clearArtifacts().build());
        }
        return out.build();
    }

    /** The task a request names; an empty id is invalid params, an unknown or foreign one -32001. */
    Task find(String id, String owner) {
        return findWithSeq(id, owner).task();
    }

    /**
     * The task a request names with the sequence number of its latest event; an empty id is invalid
     * params, an unknown or foreign one -32001.
     */
    StoredTask findWithSeq(String id, String owner) {
        if (id.isEmpty()) {
            throw A2aError.INVALID_PARAMS.exception("params.id (the task id) is required");
        }
        return storedWithSeq(id, owner);
    }

    /**
     * The stored task with the sequence number of its latest event, or -32001 when there is none or
     * it belongs to another principal, or -32603 saying so when it no longer decodes.
     *
     * <p>PROTOCOL (A2A §3.3.2): a caller must not learn that a resource it may not see exists, so a
     * foreign task is answered exactly as a missing one, the same code and the same message.
     */
    StoredTask storedWithSeq(String id, String owner) {
        StoredTask stored = store.load(id).filter(t -> t.owner().equals(owner))
                .orElseThrow(() -> A2aError.TASK_NOT_FOUND.exception("Task not found: " + id));
        if (!stored.readable()) {
            // Its owner is told why, in one line; only the stand-in's id and state are known.
            UnreadableTasks.report(stored, "a read of it answers -32603");
            throw A2aError.INTERNAL.exception("Task " + id + " is stored but cannot be read: " + stored.unreadable()
                    + ". It is set aside; start a new task.");
        }
        return stored;
    }
}
