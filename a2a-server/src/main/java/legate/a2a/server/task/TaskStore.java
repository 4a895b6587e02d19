package legate.a2a.server.task;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import lf.a2a.v1.Task;

/**
 * Where tasks live between and after calls, and the ordered log of each task's events: a task
 * outlives the request that created it (A2A §3.1.3), and its log is what a resumed stream replays.
 *
 * <p>Contract, for every implementation (memory, SQLite, PostgreSQL):
 * <ul>
 *   <li>A task changes only by {@link #append}: the event joins the task's log under the next
 *       sequence number and the task as it stands after the event replaces the stored one, both
 *       in one atomic step. Sequence numbers start at 1 and increase by one per task, across all
 *       its turns; the caller (the task's run, which serialises a task's events) assigns them.
 *   <li>Acknowledge after commit: an append marked {@code durable} returns only once that event,
 *       and every event appended before it, survives a {@code kill -9} of the process. The run
 *       marks the event that ends a turn (terminal, INPUT_REQUIRED, AUTH_REQUIRED) durable, and
 *       tells no caller of it before, so nothing a caller was told the outcome of can be lost.
 *       Other appends return once readers of this store see them and are committed shortly after,
 *       in order (group commit); a crash may lose the last few of a turn still running, which a
 *       restart then fails anyway.
 *   <li>Ownership: a task belongs to the principal in its first event ({@link TaskEvent#owner()}),
 *       for as long as it is stored; {@link #load} and {@link #list} say and filter by it. A
 *       conversation belongs to the principal that claimed it or owns its tasks.
 *   <li>Thread-safe. Appends of one task come from one thread at a time; appends of different
 *       tasks may come from many threads at once.
 * </ul>
 */
public interface TaskStore extends AutoCloseable {

    /** The task as it stands after its latest event, and that event's sequence number. */
    Optional<StoredTask> load(String taskId);

    /** The task as it stands after its latest event. */
    default Optional<Task> get(String taskId) {
        return load(taskId).map(StoredTask::task);
    }

    /**
     * Appends {@code event} to its task's log and stores the task after it, atomically. Reads of
     * this store see both when it returns.
     *
     * @param durable wait until the event, and every one appended before it, is committed
     * @throws IllegalStateException when the sequence number is not the task's next one
     */
    void append(TaskEvent event, boolean durable);

    /**
     * Appends {@code event} as {@link #append} does, without waiting for its commit, and returns
     * what completes once the event, and every one appended before it, is committed (or fails when
     * that commit fails): for a caller who must tell nobody of the event before it is durable, yet
     * need not wait for it. A stream's first frame waits for it; the turn goes on meanwhile, so its
     * task's creation rides in the same group commit as the events after it.
     *
     * <p>The default appends durably and returns once committed, so a store (or a wrapper) that
     * overrides only {@link #append} still sees every event, and still keeps the promise.
     *
     * @throws IllegalStateException when the sequence number is not the task's next one
     */
    default CompletableFuture<Void> appendCommitted(TaskEvent event) {
        append(event, true);
        return CompletableFuture.completedFuture(null);
    }

    /** The task's events whose sequence number is above {@code afterSeq}, in order; empty for an unknown task. */
    List<LoggedEvent> eventsAfter(String taskId, long afterSeq);

    /**
     * One page of the tasks matching the query, newest status first (A2A §3.1.4).
     *
     * @throws IllegalArgumentException when the page token was not issued by this store
     */
    TaskPage list(TaskQuery query);

    /** The tasks whose latest state is SUBMITTED or WORKING: the runs a restart interrupted. */
    List<StoredTask> unsettled();

    /** Deletes the terminal tasks whose status time is before {@code cutoff}, with their logs; returns how many. */
    int deleteTerminalBefore(Instant cutoff);

    /**
     * Who a conversation belongs to: the principal that claimed it ({@link #claimContext}), else the
     * owner of a task in it; empty for a conversation nobody holds (never seen, or every task of
     * it deleted). "" is the anonymous caller.
     */
    Optional<String> contextOwner(String contextId);

    /**
     * Records {@code owner} as the conversation's owner unless it already has one, atomically (two
     * callers claiming one new contextId at once: one wins), and returns the owner in force.
     */
    String claimContext(String contextId, String owner);

    /** What an executor keeps for a conversation (the bridge: its ACP session), or empty. */
    Optional<String> contextState(String contextId);

    /** Replaces what an executor keeps for a conversation. */
    void saveContextState(String contextId, String state);

    /**
     * Stores a push configuration (A2A §3.1.7) with its delivery progress, replacing the one of the
     * same task and id. A task's configurations go when the task does ({@link #deleteTerminalBefore}),
     * so that a retention sweep leaves no webhook behind.
     */
    void savePushConfig(StoredPushConfig config);

    /** The task's push configurations, oldest first; empty for an unknown task. */
    List<StoredPushConfig> pushConfigs(String taskId);

    /** Deletes one push configuration; whether there was one. */
    boolean deletePushConfig(String taskId, String configId);

    /**
     * Records how far a configuration's deliveries got, unless it was deleted meanwhile (a Delete or
     * a 410 Gone wins over a delivery that was in flight).
     */
    void savePushProgress(StoredPushConfig progress);

    /**
     * The configurations a restarted server must resume: those of tasks that are not terminal (more
     * events will come), and those with events still to deliver.
     */
    List<StoredPushConfig> pushConfigsInFlight();

    /** Releases what the store holds (connections, files); the default holds nothing. */
    @Override
    default void close() {
    }
}
