package legate.store.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import legate.a2a.server.task.TaskEvent;

/** One piece of work for the writer, committed in a batch with the others queued beside it. */
sealed interface WriteOp {

    /**
     * An event to log, with the task after it.
     *
     * @param encoded the event's protobuf encoding, made by the appending thread
     * @param encodedTask the task's encoding, made by the appending thread for a durable append
     *     (the one that ends a turn, so nearly always the row its batch writes); null otherwise,
     *     and the writer encodes the task if its row is written
     * @param done completed once committed (or failed), for a durable append; null otherwise
     */
    record Append(PendingLog log, TaskEvent event, byte[] encoded, byte[] encodedTask, CompletableFuture<Void> done)
            implements WriteOp {
    }

    /** Other work on the write connection (retention, context state, a barrier), answered once committed. */
    final class Job<T> implements WriteOp {
        /** What a job does inside the batch's transaction. */
        @FunctionalInterface
        interface Work<T> {
            T run(Connection c) throws SQLException;
        }

        private final Work<T> work;
        final CompletableFuture<T> done = new CompletableFuture<>();
        private T result;

        Job(Work<T> work) {
            this.work = work;
        }

        void run(Connection c) throws SQLException {
            result = work.run(c);
        }

        /** The batch committed: the caller gets what the work returned. */
        void committed() {
            done.complete(result);
        }
    }
}
