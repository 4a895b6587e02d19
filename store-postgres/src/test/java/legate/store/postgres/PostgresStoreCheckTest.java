package legate.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import legate.testsupport.Cleanup;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What {@code legate doctor} reports about a PostgreSQL store, against a real server: the schema's
 * version and what a start would apply, a newer schema named as such, an unreachable server named
 * without its password, and nothing changed by looking.
 */
class PostgresStoreCheckTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static PostgresServer server;

    @BeforeAll
    static void startServer() {
        server = cleanup.register(PostgresServer.start());
    }

    @Test
    void anEmptyDatabaseHasEveryMigrationPendingAndLookingAppliesNone() {
        DatabaseUrl url = server.freshDatabase();
        PostgresStoreCheck before = PostgresStoreCheck.of(url);
        assertThat(before.problem()).isNull();
        assertThat(before.version()).isEqualTo("none");
        assertThat(before.pending()).isPositive();
        assertThat(PostgresStoreCheck.of(url).version()).as("the check migrates nothing").isEqualTo("none");

        try (PostgresTaskStore store = PostgresTaskStore.open(url)) {
            PostgresStoreCheck after = PostgresStoreCheck.of(url);
            assertThat(after.version()).isEqualTo(store.schemaVersion()).isEqualTo(after.latest());
            assertThat(after.pending()).isZero();
        }
    }

    @Test
    void aSchemaANewerLegateUpgradedIsAProblemNamingBothVersions() {
        DatabaseUrl url = server.freshDatabase();
        Flyway.configure(getClass().getClassLoader()).dataSource(url.jdbcUrl(), url.user(), url.password())
                .schemas(Schema.NAME).defaultSchema(Schema.NAME)
                .locations(Schema.LOCATION, "classpath:db/postgres-future").load().migrate();
        PostgresStoreCheck check = PostgresStoreCheck.of(url);
        assertThat(check.problem()).contains("version 99").contains("newer than the " + check.latest());
    }

    @Test
    void anUnreachableServerIsAProblemThatNeverShowsThePassword() throws IOException {
        int port;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            port = s.getLocalPort();
        }
        PostgresStoreCheck check = PostgresStoreCheck.of(
                DatabaseUrl.parse("postgres://legate:s3cret-pw@127.0.0.1:" + port + "/tasks"));
        assertThat(check.problem()).startsWith("cannot reach").doesNotContain("s3cret-pw");
        assertThat(check.toString()).doesNotContain("s3cret-pw");
    }
}
