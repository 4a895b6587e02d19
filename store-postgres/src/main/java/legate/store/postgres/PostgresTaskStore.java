package legate.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredPushConfig;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskEvent;
import legate.a2a.server.task.TaskPage;
import legate.a2a.server.task.TaskQuery;
import legate.a2a.server.task.TaskStore;
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
 * ({@link PendingTasks}). Reads merge that pending state over the committed rows ({@link Tables});
 * ListTasks, the restart scan and retention read the tables only, after waiting for the appends
 * queued before them to be committed.
 *
 * <p>A read that fails (the database is unreachable) throws {@link PostgresStoreException}; the
 * store stays usable and the next call tries again.
 */
public final class PostgresTaskStore implements TaskStore {
    /** Connections kept by the pool: the group commit holds one, reads share the rest. */
    public static final int DEFAULT_POOL_SIZE = 8;
    private static final Logger LOG = LoggerFactory.getLogger(PostgresTaskStore.class);

    private final HikariDataSource dataSource;
    private final Tables tables;
    private final PushConfigTable pushConfigs;
    private final PendingTasks pending = new PendingTasks();
    private final GroupCommit groupCommit;
    private final ContextLeases leases;
    private final String schemaVersion;

    private PostgresTaskStore(HikariDataSource dataSource, String schemaVersion) {
        this.dataSource = dataSource;
        this.tables = new Tables(dataSource);
        this.pushConfigs = new PushConfigTable(dataSource);
        this.schemaVersion = schemaVersion;
        this.groupCommit = new GroupCommit(dataSource, pending);
        this.leases = new ContextLeases(dataSource);
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

    /**
     * This store as the meeting point of several instances of the agent (README "Several
     * instances"): the group the server joins when it starts, sharing this store's connections.
     */
    public PostgresInstances instances(InstanceSettings settings) {
        return new PostgresInstances(leases, new EventNotifications(dataSource), settings,
                groupCommit::drain);
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
        return latest != null ? Optional.of(latest) : tables.task(taskId);
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
        CompletableFuture<Void> committed = queue(event, durable);
        if (committed != null) {
            GroupCommit.await(committed, "committing event " + event.seq() + " of task " + event.taskId());
        }
    }

    /** Queued like any append; the future completes when the group commit that carries it does. */
    @Override
    public CompletableFuture<Void> appendCommitted(TaskEvent event) {
        return queue(event, true);
    }

    /** Queues the event for the group commit; returns what its commit completes when {@code durable}, else null. */
    private CompletableFuture<Void> queue(TaskEvent event, boolean durable) {
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
                entry = pending.adopt(taskId, event.seq() == 1 ? 0 : tables.lastSeq(taskId));
            }
        } while (!pending.record(entry, event));
        return groupCommit.submit(event, entry, durable);
    }

    @Override
    public List<LoggedEvent> eventsAfter(String taskId, long afterSeq) {
        if (!storable(taskId)) {
            return List.of();
        }
        // Pending first, the table second: an event committed in between is in one or the other.
        List<LoggedEvent> uncommitted = pending.eventsAfter(taskId, afterSeq);
        List<LoggedEvent> out = tables.events(taskId, afterSeq);
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
        return storable(query.contextId()) ? tables.page(query) : new TaskPage(List.of(), "", 0);
    }

    @Override
    public List<StoredTask> unsettled() {
        groupCommit.drain();
        return tables.unsettled();
    }

    /**
     * {@inheritDoc}
     *
     * <p>The leases of the conversations left without a task go too (see
     * {@link ContextLeases#forgetEmptyConversations}): otherwise the lease table would grow by one
     * row per conversation for as long as an instance lives.
     */
    @Override
    public int deleteTerminalBefore(Instant cutoff) {
        groupCommit.drain();
        int deleted = tables.deleteTerminalBefore(cutoff);
        leases.forgetEmptyConversations();
        return deleted;
    }

    @Override
    public Optional<String> contextOwner(String contextId) {
        if (!storable(contextId)) {
            return Optional.empty();
        }
        // The conversation's tasks may still be on their way to the database.
        groupCommit.drain();
        return tables.contextOwner(contextId);
    }

    @Override
    public String claimContext(String contextId, String owner) {
        if (!storable(contextId) || !storable(owner)) {
            throw new IllegalArgumentException("a context id or principal holding U+0000 cannot be stored in PostgreSQL");
        }
        return tables.claimContext(contextId, owner);
    }

    @Override
    public Optional<String> contextState(String contextId) {
        return storable(contextId) ? tables.contextState(contextId) : Optional.empty();
    }

    @Override
    public void saveContextState(String contextId, String state) {
        if (!storable(contextId) || !storable(state)) {
            throw new IllegalArgumentException("a context id or state holding U+0000 cannot be stored in PostgreSQL");
        }
        tables.saveContextState(contextId, state);
    }

    @Override
    public void savePushConfig(StoredPushConfig config) {
        if (!storable(config.taskId()) || !storable(config.id())) {
            throw new IllegalArgumentException("a task id or configuration id holding U+0000 cannot be stored in PostgreSQL");
        }
        pushConfigs.save(config);
    }

    @Override
    public List<StoredPushConfig> pushConfigs(String taskId) {
        return storable(taskId) ? pushConfigs.ofTask(taskId) : List.of();
    }

    @Override
    public boolean deletePushConfig(String taskId, String configId) {
        return storable(taskId) && storable(configId) && pushConfigs.delete(taskId, configId);
    }

    @Override
    public void savePushProgress(StoredPushConfig progress) {
        pushConfigs.progress(progress);
    }

    @Override
    public List<StoredPushConfig> pushConfigsInFlight() {
        groupCommit.drain();
        return pushConfigs.inFlight();
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

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.toString() : root.getMessage();
    }
}
