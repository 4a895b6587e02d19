package legate.store.sqlite;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The writer's queue. Appending threads add; the writer takes everything added since its last
 * take as the next batch, so a batch is whatever arrived while the previous one was being
 * committed: one commit per batch, batches in the order they were added (group commit, with no
 * timer: an idle store commits a lone append at once).
 */
final class WriteQueue {
    // A j.u.c lock, not a monitor: appending threads are often virtual ones.
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition filled = lock.newCondition();
    private List<WriteOp> open = new ArrayList<>();
    private boolean closed;

    /** @throws IllegalStateException once the store is closed */
    void add(WriteOp op) {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the task store is closed");
            }
            open.add(op);
            if (open.size() == 1) {
                filled.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The next batch, waiting for one; null once closed and drained. */
    List<WriteOp> take() throws InterruptedException {
        lock.lock();
        try {
            while (open.isEmpty() && !closed) {
                filled.await();
            }
            if (open.isEmpty()) {
                return null;
            }
            List<WriteOp> batch = open;
            open = new ArrayList<>(Math.max(16, batch.size()));
            return batch;
        } finally {
            lock.unlock();
        }
    }

    /** What is queued, without waiting; null when nothing is. */
    List<WriteOp> drain() {
        lock.lock();
        try {
            if (open.isEmpty()) {
                return null;
            }
            List<WriteOp> batch = open;
            open = new ArrayList<>();
            return batch;
        } finally {
            lock.unlock();
        }
    }

    /** Refuses further work; what is queued is still taken. */
    void close() {
        lock.lock();
        try {
            closed = true;
            filled.signal();
        } finally {
            lock.unlock();
        }
    }
}
