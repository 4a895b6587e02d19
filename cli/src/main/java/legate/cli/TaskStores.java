package legate.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.function.Supplier;
import legate.a2a.server.RandomIds;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.InstanceGroup;
import legate.a2a.server.task.TaskStore;
import legate.store.postgres.DatabaseUrl;
import legate.store.postgres.InstanceSettings;
import legate.store.postgres.PostgresTaskStore;
import legate.store.sqlite.SqliteTaskStore;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * Opens the task store {@code TASK_STORE} names, for {@code legate agent} and {@code legate
 * bridge} alike: the one place each store module plugs into the commands, one branch each.
 */
final class TaskStores {
    static final String SQLITE = "sqlite";
    static final String MEMORY = "memory";
    static final String POSTGRES = "postgres";

    private TaskStores() {
    }

    /**
     * The store the options name, open; the server that runs on it closes it.
     *
     * @param blame the command line a ParameterException names (usage error, exit status 2), built only to throw one
     */
    static TaskStore open(ServerOptions options, Supplier<CommandLine> blame) {
        return switch (options.store) {
            case MEMORY -> new InMemoryTaskStore(options.maxTasks);
            case POSTGRES -> postgres(options, blame);
            case SQLITE -> sqlite(options);
            default -> throw new ParameterException(blame.get(), "TASK_STORE must be " + SQLITE + ", " + MEMORY
                    + " or " + POSTGRES + ", got \"" + options.store + "\"");
        };
    }

    private static TaskStore sqlite(ServerOptions options) {
        try {
            return SqliteTaskStore.open(options.dataDir());
        } catch (RuntimeException e) {
            throw new StoreUnavailable("the sqlite task store in " + options.dataDir().toAbsolutePath()
                    + " cannot be opened: " + e.getMessage());
        }
    }

    private static TaskStore postgres(ServerOptions options, Supplier<CommandLine> blame) {
        if (options.databaseUrl == null || options.databaseUrl.isBlank()) {
            throw new ParameterException(blame.get(), "TASK_STORE=postgres needs DATABASE_URL (--database-url):"
                    + " postgres://user:password@host:port/db or a JDBC URL");
        }
        // Checked before connecting: a typo in the instance keys should not wait for a database.
        instanceSettings(options, null, blame);
        DatabaseUrl url;
        try {
            url = DatabaseUrl.parse(options.databaseUrl);
        } catch (IllegalArgumentException e) {
            // The parser's messages never quote the URL, so no password reaches the terminal.
            throw new ParameterException(blame.get(), "DATABASE_URL: " + e.getMessage());
        }
        try {
            return PostgresTaskStore.open(url);
        } catch (RuntimeException e) {
            throw new StoreUnavailable("the postgres task store at " + url + " cannot be opened: " + e.getMessage());
        }
    }

    /**
     * The instances the store is shared with: for postgres, this instance's place among them
     * (INSTANCE_ID, INSTANCE_URL, LEASE_TTL_MS, LEASE_HEARTBEAT_MS); alone for the others.
     *
     * @param blame the command line a ParameterException names, built only to throw one
     */
    static InstanceGroup group(TaskStore store, ServerOptions options, ServerSetup setup, Supplier<CommandLine> blame) {
        if (!(store instanceof PostgresTaskStore postgres)) {
            return InstanceGroup.ALONE;
        }
        return postgres.instances(instanceSettings(options, setup, blame));
    }

    /** INSTANCE_ID, INSTANCE_URL and the lease's timing, checked: a bad one is a usage error (exit status 2). */
    private static InstanceSettings instanceSettings(ServerOptions options, ServerSetup setup, Supplier<CommandLine> blame) {
        URI explicit = null;
        if (options.instanceUrl != null && !options.instanceUrl.isBlank()) {
            try {
                explicit = new URI(options.instanceUrl.trim());
            } catch (URISyntaxException e) {
                explicit = null;
            }
            if (explicit == null || explicit.getScheme() == null || !explicit.getScheme().matches("https?")
                    || explicit.getHost() == null) {
                throw new ParameterException(blame.get(), "INSTANCE_URL must be an absolute http(s) URL (this"
                        + " instance's JSON-RPC URL as the other instances dial it), got " + options.instanceUrl);
            }
        }
        URI fixed = explicit;
        String id = options.instanceId == null || options.instanceId.isBlank() ? RandomIds.next() : options.instanceId.trim();
        try {
            return new InstanceSettings(id, port -> fixed != null ? fixed : URI.create(setup.listeningUrl(port)),
                    Duration.ofMillis(options.leaseTtlMs), Duration.ofMillis(options.leaseHeartbeatMs));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(blame.get(), e.getMessage());
        }
    }

    /** A store that is configured right but cannot be opened now (down, refused, a newer schema): exit status 1. */
    static final class StoreUnavailable extends RuntimeException {
        StoreUnavailable(String message) {
            super(message);
        }
    }
}
