package legate.store.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import javax.sql.DataSource;
import legate.a2a.server.task.TaskEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one writer of the store's appends: it takes whatever has been queued since its last
 * transaction, up to {@link #MAX_BATCH} events of any number of tasks, and commits it as one
 * (group commit). Under load each commit carries many events for the price of one; alone, an
 * event is committed as soon as the writer is free, with no timer to wait for.
 *
 * <p>A durable append waits for the commit of the batch that holds its event; batches commit in
 * the order they were queued, so every event appended before it is committed too. A batch that
 * fails (the database is gone, a statement fails) rolls back whole: its durable waiters get a
 * {@link PostgresStoreException} naming the task and the cause, the pending state of its tasks is
 * dropped, and the writer goes on with the next batch. A task whose events the database refuses
 * as out of sequence ({@link Batch}) fails alone, with an {@link IllegalStateException} as the
 * TaskStore contract says.
 *
 * <p>The queue is bounded: when the database falls behind, appends wait for room instead of
 * filling the heap.
 */
final class GroupCommit implements AutoCloseable {
    static final int MAX_BATCH = 1024;
    private static final int QUEUE_CAPACITY = 64 * MAX_BATCH;
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommit.class);

    /** What the writer takes from its queue. */
    sealed interface Queued permits Write, Barrier, Stop {
    }

    /** One append; {@code committed} is null when no caller waits for it. */
    record Write(TaskEvent event, PendingTasks.Entry entry, CompletableFuture<Void> committed) implements Queued {
    }

    /** Completes once everything queued before it has been committed or has failed. */
    record Barrier(CompletableFuture<Void> reached) implements Queued {
    }

    /** The writer's last item. */
    record Stop() implements Queued {
    }

    private final DataSource dataSource;
    private final PendingTasks pending;
    private final BlockingQueue<Queued> queue = new LinkedBlockingQueue<>(QUEUE_CAPACITY);
    private final Thread writer;
    private volatile boolean closed;
    private volatile boolean exited;

    GroupCommit(DataSource dataSource, PendingTasks pending) {
        this.dataSource = dataSource;
        this.pending = pending;
        this.writer = Thread.ofPlatform().name("legate-postgres-group-commit").daemon().unstarted(this::run);
        writer.start();
    }

    /**
     * Queues one append, after the pending state has recorded it.
     *
     * @return the commit to wait for when {@code durable}, else null
     */
    CompletableFuture<Void> submit(TaskEvent event, PendingTasks.Entry entry, boolean durable) {
        CompletableFuture<Void> committed = durable ? new CompletableFuture<>() : null;
        enqueue(new Write(event, entry, committed));
        return committed;
    }

    /** Waits until everything queued before this call has been committed (or has failed). */
    void drain() {
        CompletableFuture<Void> reached = new CompletableFuture<>();
        enqueue(new Barrier(reached));
        await(reached, "waiting for the pending appends");
    }

    /** Waits for a durable append's commit. */
    static void await(CompletableFuture<Void> f, String what) {
        try {
            f.get();
        } catch (ExecutionException e) {
            // Rethrown on the caller's thread, so its stack shows who appended.
            switch (e.getCause()) {
                case IllegalStateException outOfSequence ->
                        throw new IllegalStateException(outOfSequence.getMessage(), outOfSequence);
                case PostgresStoreException failure -> throw new PostgresStoreException(failure.getMessage(), failure);
                default -> throw new PostgresStoreException("the group commit failed while " + what, e.getCause());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PostgresStoreException("interrupted while " + what + "; the append may still be committed", e);
        }
    }

    private void enqueue(Queued item) {
        if (closed) {
            throw new IllegalStateException("the PostgreSQL task store is closed");
        }
        try {
            queue.put(item);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PostgresStoreException("interrupted while waiting for room in the group commit's queue", e);
        }
        if (exited) {
            // The writer stopped after this item's check above: nothing will commit it.
            failLeftovers();
        }
    }

    private void run() {
        List<Queued> items = new ArrayList<>(MAX_BATCH);
        boolean stop = false;
        while (!stop) {
            try {
                items.add(queue.take());
                queue.drainTo(items, MAX_BATCH - 1);
            } catch (InterruptedException e) {
                break;
            }
            stop = process(items);
            items.clear();
        }
        exited = true;
        failLeftovers();
    }

    /** Commits one batch and completes what waits on it; true when it held the Stop. */
    private boolean process(List<Queued> items) {
        Batch batch = new Batch();
        List<Barrier> barriers = new ArrayList<>();
        boolean stop = false;
        for (Queued q : items) {
            switch (q) {
                case Write w -> {
                    RuntimeException earlier = w.entry().failure();
                    if (earlier != null) {
                        // An earlier event of this task failed to commit: this one would leave a gap.
                        fail(w, behind(w, earlier));
                    } else {
                        batch.add(w);
                    }
                }
                case Barrier b -> barriers.add(b);
                case Stop s -> stop = true;
            }
        }
        if (!batch.isEmpty()) {
            commit(batch);
        }
        for (Barrier b : barriers) {
            b.reached().complete(null);
        }
        return stop;
    }

    private void commit(Batch batch) {
        Set<String> accepted;
        try {
            accepted = write(batch);
        } catch (SQLException | RuntimeException e) {
            LOG.warn("group commit of {} tasks failed: {}", batch.byTask().size(), e.toString());
            for (List<GroupCommit.Write> writes : batch.byTask()) {
                PendingTasks.Entry entry = writes.get(0).entry();
                pending.failed(entry, new PostgresStoreException("event " + writes.get(0).event().seq()
                        + " of the task failed to commit: " + e.getMessage(), e));
                for (Write w : writes) {
                    fail(w, new PostgresStoreException("event " + w.event().seq() + " of task " + entry.taskId
                            + " was not committed: " + e.getMessage(), e));
                }
            }
            return;
        }
        for (List<GroupCommit.Write> writes : batch.byTask()) {
            PendingTasks.Entry entry = writes.get(0).entry();
            if (accepted.contains(entry.taskId)) {
                pending.committed(entry, writes.get(writes.size() - 1).event().seq());
                for (Write w : writes) {
                    if (w.committed() != null) {
                        w.committed().complete(null);
                    }
                }
            } else {
                // The TaskStore contract's sequence check, made by the database: an IllegalStateException.
                String reason = "the stored log of the task does not end at event " + (writes.get(0).event().seq() - 1)
                        + " (the task id is taken, another process appended to it, or an earlier event failed to commit)";
                pending.failed(entry, new IllegalStateException(reason));
                for (Write w : writes) {
                    fail(w, new IllegalStateException("event " + w.event().seq() + " of task " + entry.taskId
                            + " was not committed: " + reason));
                }
            }
        }
    }

    private Set<String> write(Batch batch) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return batch.write(c);
        }
    }

    private static void fail(Write w, RuntimeException failure) {
        if (w.committed() != null) {
            w.committed().completeExceptionally(failure);
        }
    }

    /** The failure of a write queued behind {@code first}, the failure of an earlier event of its task. */
    private static RuntimeException behind(Write w, RuntimeException first) {
        return PendingTasks.following(first, "event " + w.event().seq() + " of task " + w.entry().taskId
                + " was not committed: " + first.getMessage());
    }

    private void failLeftovers() {
        Queued q;
        while ((q = queue.poll()) != null) {
            switch (q) {
                case Write w -> fail(w, new PostgresStoreException("event " + w.event().seq() + " of task "
                        + w.entry().taskId + " was not committed: the store was closed", null));
                case Barrier b -> b.reached().complete(null);
                case Stop s -> {
                }
            }
        }
    }

    /** Commits everything queued, then stops the writer. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            queue.put(new Stop());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
