package legate.store.sqlite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.PageToken;
import legate.a2a.server.task.StoredPushConfig;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskEvent;
import legate.a2a.server.task.TaskPage;
import legate.a2a.server.task.TaskQuery;
import legate.a2a.server.task.TaskStore;
import legate.store.sqlite.WriteOp.Append;
import legate.store.sqlite.WriteOp.Job;

/**
 * A {@link TaskStore} in one SQLite file ({@code DATA_DIR/legate.db}): tasks, their event logs and
 * the executors' per-conversation state outlive the process, a {@code kill -9} included.
 *
 * <p>Writes go through one writer thread that commits whatever has queued up as one transaction
 * (group commit, {@link GroupCommit}); an append returns at once, or, when durable, once its batch
 * is committed. Until then the append is kept in memory ({@link PendingLogs}) and every read merges
 * it over the file, so a reader never sees less than was appended. Reads run on a small pool of
 * their own connections beside the writer, and a {@link Checkpointer} folds the write-ahead log back
 * into the file on a thread of its own. The schema is created or upgraded on open ({@link Schema});
 * a file written by a newer Legate is refused.
 *
 * <p>Thread-safe, as the contract asks; one instance per file, and one process per file (a second
 * is refused while the first holds it). Close it to commit what is queued and fold the write-ahead
 * log back into the file.
 */
public final class SqliteTaskStore implements TaskStore {
    /** The file's name inside {@code DATA_DIR}. */
    public static final String FILE_NAME = "legate.db";
    /** How long a statement waits for a lock another program holds on the file before failing. */
    public static final Duration BUSY_TIMEOUT = Duration.ofSeconds(5);
    private static final int READERS = 4;

    private final DatabaseFile file;
    private final PendingLogs pending = new PendingLogs();
    private final WriteQueue queue = new WriteQueue();
    private final ReadPool reads;
    private final GroupCommit commit;
    private final Thread writer;
    private final Checkpointer checkpointer;
    private final Thread checkpoints;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** Opens (creating it if needed) the store in {@code dataDir}, creating the folder too. */
    public static SqliteTaskStore open(Path dataDir) {
        try {
            Files.createDirectories(dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the data folder " + dataDir, e);
        }
        return new SqliteTaskStore(dataDir.resolve(FILE_NAME));
    }

    /** Opens (creating it if needed) the store in {@code file}; its folder must exist. */
    public SqliteTaskStore(Path file) {
        this(file, Schema.CURRENT, BUSY_TIMEOUT);
    }

    SqliteTaskStore(Path path, Schema schema, Duration busyTimeout) {
        this.file = DatabaseFile.claim(path, busyTimeout);
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            Connection w = file.openWriter();
            opened.add(w);
            schema.migrate(w, path);
            Connection k = file.openCheckpointer();
            opened.add(k);
            this.checkpointer = new Checkpointer(k);
            this.commit = new GroupCommit(file, w, queue, pending, checkpointer);
            this.reads = new ReadPool(file, READERS);
            String name = path.getFileName().toString();
            this.writer = Thread.ofPlatform().name("sqlite-writer " + name).daemon().unstarted(commit);
            this.checkpoints = Thread.ofPlatform().name("sqlite-checkpoint " + name).daemon().unstarted(checkpointer);
        } catch (SQLException | RuntimeException e) {
            for (AutoCloseable c : opened.reversed()) {
                closeQuietly(c);
            }
            file.close();
            throw e instanceof SQLException ? new SqliteStoreException("cannot open " + path + ": " + e.getMessage(), e)
                    : (RuntimeException) e;
        }
        writer.start();
        checkpoints.start();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            // Opening failed already; that is the error to report.
        }
    }

    @Override
    public Optional<StoredTask> load(String taskId) {
        StoredTask latest = pending.latest(taskId);
        if (latest != null) {
            return Optional.of(latest);
        }
        // Nothing pending: everything appended is committed, or the task is unknown.
        return reads.read("task " + taskId, c -> c.load(taskId));
    }

    @Override
    public void append(TaskEvent event, boolean durable) {
        byte[] encoded = event.event().toByteArray();
        // Encoded here, on the appending thread, rather than by the one writer thread all share.
        byte[] encodedTask = durable ? event.task().toByteArray() : null;
        CompletableFuture<Void> done = durable ? new CompletableFuture<>() : null;
        while (true) {
            PendingLog log = pending.forAppend(event.taskId(), event.seq() == 1 ? NEW_TASK : this::committed);
            synchronized (log) {
                boolean accepted;
                try {
                    accepted = log.accept(event);
                } catch (IllegalStateException wrongSeq) {
                    pending.forget(log);
                    throw wrongSeq;
                }
                if (!accepted) {
                    continue;
                }
                // Queued under the log's monitor: the task's events reach the writer in sequence order.
                try {
                    queue.add(new Append(log, event, encoded, encodedTask, done));
                } catch (IllegalStateException closed) {
                    // DEFECT: a first event appended to a closed store stayed in its log, and a
                    // load found it (no read of the file refused it first any more).
                    pending.lose(log, closed);
                    throw closed;
                }
            }
            break;
        }
        if (done != null) {
            await(done);
        }
    }

    /**
     * What the file holds of a task whose first event is being appended: nothing, and no read to
     * learn it (it was one SELECT on a reader per new task). PROTOCOL (A2A Task.id): a new task's
     * id is generated by the server, a moment before its first event; a client's taskId names an
     * existing task only, so no stored task holds a new one's id. Should a first event come for an id the file
     * holds, the insert of its row breaks UNIQUE (id): its batch fails, its durable appender gets
     * the error, and the store goes on (CommitFailureTest). A later event (seq above 1) is still
     * checked against the file here, and refused to its caller when it does not follow.
     */
    private static final PendingLogs.FileTail NEW_TASK = taskId -> PendingLog.Committed.NOTHING;

    private PendingLog.Committed committed(String taskId) {
        return reads.read("task " + taskId, c -> c.committed(taskId));
    }

    @Override
    public List<LoggedEvent> eventsAfter(String taskId, long afterSeq) {
        // Pending first: an event committed between the two reads is then in the file's answer.
        List<LoggedEvent> uncommitted = pending.eventsAfter(taskId, afterSeq);
        List<LoggedEvent> stored = reads.read("the events of task " + taskId, c -> c.eventsAfter(taskId, afterSeq));
        if (uncommitted.isEmpty()) {
            return stored;
        }
        long last = stored.isEmpty() ? afterSeq : stored.get(stored.size() - 1).seq();
        List<LoggedEvent> out = new ArrayList<>(stored);
        for (LoggedEvent e : uncommitted) {
            if (e.seq() > last) {
                out.add(e);
            }
        }
        return out;
    }

    @Override
    public TaskPage list(TaskQuery query) {
        if (!query.pageToken().isEmpty()) {
            PageToken.decode(query.pageToken());
        }
        flush();
        return reads.read("the task list", c -> c.list(query));
    }

    @Override
    public List<StoredTask> unsettled() {
        flush();
        return reads.read("the unsettled tasks", ReadConnection::unsettled);
    }

    @Override
    public int deleteTerminalBefore(Instant cutoff) {
        StatusKey before = StatusKey.of(cutoff);
        int total = 0;
        while (true) {
            int deleted = submit(new Job<>(c -> Retention.deleteChunk(c, before)));
            total += deleted;
            if (deleted < Retention.CHUNK) {
                return total;
            }
        }
    }

    @Override
    public Optional<String> contextOwner(String contextId) {
        // The tasks of the conversation may still be on their way to the file.
        flush();
        return reads.read("the owner of context " + contextId, c -> c.contextOwner(contextId));
    }

    @Override
    public String claimContext(String contextId, String owner) {
        return submit(new Job<>(c -> {
            try (PreparedStatement claim = c.prepareStatement("INSERT INTO contexts (context_id, state, owner)"
                    + " VALUES (?, '', ?) ON CONFLICT (context_id) DO UPDATE SET owner = coalesce(contexts.owner, excluded.owner)");
                 PreparedStatement read = c.prepareStatement("SELECT owner FROM contexts WHERE context_id = ?")) {
                claim.setString(1, contextId);
                claim.setString(2, owner);
                claim.executeUpdate();
                read.setString(1, contextId);
                try (ResultSet r = read.executeQuery()) {
                    r.next();
                    return r.getString(1);
                }
            }
        }));
    }

    @Override
    public Optional<String> contextState(String contextId) {
        return reads.read("the state of context " + contextId, c -> c.contextState(contextId));
    }

    @Override
    public void saveContextState(String contextId, String state) {
        submit(new Job<>(c -> {
            try (PreparedStatement s = c.prepareStatement("INSERT INTO contexts (context_id, state) VALUES (?, ?)"
                    + " ON CONFLICT (context_id) DO UPDATE SET state = excluded.state")) {
                s.setString(1, contextId);
                s.setString(2, state);
                return s.executeUpdate();
            }
        }));
    }

    @Override
    public void savePushConfig(StoredPushConfig config) {
        submit(new Job<>(c -> PushConfigs.save(c, config)));
    }

    @Override
    public List<StoredPushConfig> pushConfigs(String taskId) {
        return reads.read("the push configurations of task " + taskId, c -> PushConfigs.ofTask(c.connection(), taskId));
    }

    @Override
    public boolean deletePushConfig(String taskId, String configId) {
        return submit(new Job<>(c -> PushConfigs.delete(c, taskId, configId)));
    }

    @Override
    public void savePushProgress(StoredPushConfig progress) {
        submit(new Job<>(c -> PushConfigs.progress(c, progress)));
    }

    @Override
    public List<StoredPushConfig> pushConfigsInFlight() {
        flush();
        return reads.read("the push configurations in flight", c -> PushConfigs.inFlight(c.connection()));
    }

    /** Waits until everything queued before this call is committed. */
    void flush() {
        submit(new Job<>(c -> null));
    }

    private <T> T submit(Job<T> job) {
        queue.add(job);
        return await(job.done);
    }

    private static <T> T await(CompletableFuture<T> done) {
        try {
            return done.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /** How many tasks have appends not committed yet: what the store holds in memory. */
    int pendingTasks() {
        return pending.size();
    }

    /** Commits what is queued, folds the write-ahead log into the file and closes it. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        checkpointer.close();
        queue.close();
        try {
            checkpoints.join();
            writer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // Both threads have ended: the last checkpoint, which empties the log, has the file to itself.
        commit.close();
        reads.close();
        file.close();
    }

    @Override
    public String toString() {
        return "SqliteTaskStore(" + file + ")";
    }
}
