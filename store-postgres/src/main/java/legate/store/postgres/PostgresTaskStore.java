package legate.store.postgres;

import com.google.protobuf.InvalidProtocolBufferException;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskEvent;
import legate.a2a.server.task.TaskPage;
import legate.a2a.server.task.TaskQuery;
import legate.a2a.server.task.TaskStore;
import lf.a2a.v1.StreamResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link TaskStore} in PostgreSQL: tasks, their event logs and the executors' per-conversation
 * state outlive the process and are shared by every process on the same database.
 *
 * <p>{@link #open} connects through a HikariCP pool and brings the schema to this build's
 * version ({@link Schema}) before anything else. Appends go through one group commit
 * ({@link GroupCommit}): a durable append returns once its batch is committed, any other at
 * once, and what it appended is visible to this store's reads from that moment
 * ({@link PendingTasks}). ListTasks, the restart scan and retention read the tables only, after
 * waiting for the appends queued before them to be committed.
 *
 * <p>A read that fails (the database is unreachable) throws {@link PostgresStoreException}; the
 * store stays usable and the next call tries again.
 */
public final class PostgresTaskStore implements TaskStore {
    /** Connections kept by the pool: the group commit holds one, reads share the rest. */
    public static final int DEFAULT_POOL_SIZE = 8;
    private static final Logger LOG = LoggerFactory.getLogger(PostgresTaskStore.class);

    private final HikariDataSource dataSource;
    private final PendingTasks pending = new PendingTasks();
    private final GroupCommit groupCommit;
    private final String schemaVersion;

    private PostgresTaskStore(HikariDataSource dataSource, String schemaVersion) {
        this.dataSource = dataSource;
        this.schemaVersion = schemaVersion;
        this.groupCommit = new GroupCommit(dataSource, pending);
    }

    /** Connects with {@link #DEFAULT_POOL_SIZE} connections; see {@link #open(DatabaseUrl, int)}. */
    public static PostgresTaskStore open(DatabaseUrl url) {
        return open(url, DEFAULT_POOL_SIZE);
    }

    /**
     * Connects to the database, creates or upgrades the schema, and starts the group commit.
     *
     * @throws PostgresStoreException when the database cannot be reached (the message names the
     *     host, database and user, never the password)
     * @throws IllegalStateException when the schema is newer than this build, or cannot be migrated
     */
    public static PostgresTaskStore open(DatabaseUrl url, int poolSize) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("legate-postgres");
        config.setJdbcUrl(url.jdbcUrl());
        if (!url.user().isEmpty()) {
            config.setUsername(url.user());
        }
        if (!url.password().isEmpty()) {
            config.setPassword(url.password());
        }
        config.setSchema(Schema.NAME);
        config.setMaximumPoolSize(poolSize);
        config.addDataSourceProperty("ApplicationName", "legate");
        HikariDataSource dataSource;
        try {
            dataSource = new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw new PostgresStoreException("cannot connect to PostgreSQL at " + url + ": " + rootMessage(e), e);
        }
        try {
            String version = Schema.migrate(dataSource);
            LOG.info("PostgreSQL task store at {}, schema '{}' version {}", url, Schema.NAME, version);
            return new PostgresTaskStore(dataSource, version);
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
    }

    /** The schema version this store migrated to on opening. */
    public String schemaVersion() {
        return schemaVersion;
    }

    @Override
    public Optional<StoredTask> load(String taskId) {
        if (!storable(taskId)) {
            return Optional.empty();
        }
        StoredTask latest = pending.latest(taskId);
        if (latest != null) {
            return Optional.of(latest);
        }
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT task, last_seq FROM tasks WHERE id = ?")) {
            ps.setString(1, taskId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? Optional.of(new StoredTask(TaskListing.decode(taskId, rs.getBytes(1)), rs.getLong(2)))
                        : Optional.empty();
            }
        } catch (SQLException e) {
            throw readFailed("task " + taskId, e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>One deviation from the letter of the contract, for throughput: the first event of a task
     * (sequence number 1) that this store holds nothing of is not checked against the table before
     * it is queued, since a new task has no stored log. When the id does have one, the database
     * refuses the event at commit: a durable append throws {@link IllegalStateException} then; a
     * non-durable one is dropped, and the task's next append throws it.
     */
    @Override
    public void append(TaskEvent event, boolean durable) {
        String taskId = event.taskId();
        // PostgreSQL text cannot hold U+0000; refused here, the batch it would have failed carries other tasks too.
        if (!storable(taskId) || !storable(event.task().getContextId())) {
            throw new IllegalArgumentException("a task id or context id holding U+0000 cannot be stored in PostgreSQL");
        }
        PendingTasks.Entry entry;
        do {
            entry = pending.get(taskId);
            if (entry == null) {
                // A first event opens a new task: there is no stored number to read, and reading one
                // to prove it cost a round trip per task, half the throughput at 64 concurrent turns.
                // Should the id be taken after all, the database refuses the event at commit (Batch).
                entry = pending.adopt(taskId, event.seq() == 1 ? 0 : committedSeq(taskId));
            }
        } while (!pending.record(entry, event));
        CompletableFuture<Void> committed = groupCommit.submit(event, entry, durable);
        if (committed != null) {
            GroupCommit.await(committed, "committing event " + event.seq() + " of task " + taskId);
        }
    }

    private long committedSeq(String taskId) {
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT last_seq FROM tasks WHERE id = ?")) {
            ps.setString(1, taskId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        } catch (SQLException e) {
            throw readFailed("the last event of task " + taskId, e);
        }
    }

    @Override
    public List<LoggedEvent> eventsAfter(String taskId, long afterSeq) {
        if (!storable(taskId)) {
            return List.of();
        }
        // Pending first, the table second: an event committed in between is in one or the other.
        List<LoggedEvent> uncommitted = pending.eventsAfter(taskId, afterSeq);
        List<LoggedEvent> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement(
                     "SELECT seq, event FROM events WHERE task_id = ? AND seq > ? ORDER BY seq")) {
            ps.setString(1, taskId);
            ps.setLong(2, afterSeq);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new LoggedEvent(rs.getLong(1), decodeEvent(taskId, rs.getBytes(2))));
                }
            }
        } catch (SQLException e) {
            throw readFailed("the events of task " + taskId, e);
        }
        long last = out.isEmpty() ? afterSeq : out.get(out.size() - 1).seq();
        for (LoggedEvent e : uncommitted) {
            if (e.seq() > last) {
                out.add(e);
            }
        }
        return out;
    }

    @Override
    public TaskPage list(TaskQuery query) {
        groupCommit.drain();
        if (!storable(query.contextId())) {
            return new TaskPage(List.of(), "", 0);
        }
        try (Connection c = dataSource.getConnection()) {
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setReadOnly(true);
            c.setAutoCommit(false);
            try {
                return TaskListing.read(c, query);
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            throw readFailed("the task list", e);
        }
    }

    @Override
    public List<StoredTask> unsettled() {
        groupCommit.drain();
        List<StoredTask> out = new ArrayList<>();
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT id, task, last_seq FROM tasks WHERE state IN (1, 2)")) {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new StoredTask(TaskListing.decode(rs.getString(1), rs.getBytes(2)), rs.getLong(3)));
                }
            }
        } catch (SQLException e) {
            throw readFailed("the unsettled tasks", e);
        }
        return out;
    }

    @Override
    public int deleteTerminalBefore(Instant cutoff) {
        groupCommit.drain();
        // The events go with their task (ON DELETE CASCADE).
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("DELETE FROM tasks WHERE state IN (3, 4, 5, 7)"
                     + " AND (status_seconds, status_nanos) < (?, ?)")) {
            ps.setLong(1, cutoff.getEpochSecond());
            ps.setInt(2, cutoff.getNano());
            return ps.executeUpdate();
        } catch (SQLException e) {
            throw readFailed("the terminal tasks before " + cutoff + " (deleting)", e);
        }
    }

    @Override
    public Optional<String> contextState(String contextId) {
        if (!storable(contextId)) {
            return Optional.empty();
        }
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("SELECT state FROM contexts WHERE context_id = ?")) {
            ps.setString(1, contextId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw readFailed("the state of context " + contextId, e);
        }
    }

    @Override
    public void saveContextState(String contextId, String state) {
        if (!storable(contextId) || !storable(state)) {
            throw new IllegalArgumentException("a context id or state holding U+0000 cannot be stored in PostgreSQL");
        }
        try (Connection c = dataSource.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO contexts (context_id, state) VALUES (?, ?)"
                     + " ON CONFLICT (context_id) DO UPDATE SET state = EXCLUDED.state, updated_at = now()")) {
            ps.setString(1, contextId);
            ps.setString(2, state);
            ps.executeUpdate();
        } catch (SQLException e) {
            throw readFailed("the state of context " + contextId + " (saving)", e);
        }
    }

    /** Commits what is queued, then closes the pool. */
    @Override
    public void close() {
        groupCommit.close();
        dataSource.close();
    }

    private static boolean storable(String text) {
        return text.indexOf('\0') < 0;
    }

    private static StreamResponse decodeEvent(String taskId, byte[] encoded) {
        try {
            return StreamResponse.parseFrom(encoded);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("a logged event of task " + taskId + " no longer decodes", e);
        }
    }

    private static PostgresStoreException readFailed(String what, SQLException e) {
        return new PostgresStoreException("PostgreSQL could not read or write " + what + ": " + e.getMessage(), e);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.toString() : root.getMessage();
    }
}
