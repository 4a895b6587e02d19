package legate.store.postgres;

import static legate.store.postgres.TestTasks.moved;
import static legate.store.postgres.TestTasks.opened;
import static legate.store.postgres.TestTasks.status;
import static legate.store.postgres.TestTasks.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.TaskEvent;
import legate.testsupport.Cleanup;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The schema on start: created in an empty database, upgraded when an older Legate made it, and
 * refused, naming both versions, when a newer one did (issue 10: "an instance started against an
 * older schema upgrades it, one started against a newer one refuses with a clear message").
 */
class SchemaTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static PostgresServer server;
    private DatabaseUrl url;

    @BeforeAll
    static void startServer() {
        server = cleanup.register(PostgresServer.start());
    }

    @BeforeEach
    void freshDatabase() {
        url = server.freshDatabase();
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(url.jdbcUrl(), url.user(), url.password());
    }

    /** Flyway as an older or newer Legate would have run it: up to {@code target}, from {@code locations}. */
    private void migrateAsAnotherLegate(String target, String... locations) {
        Flyway.configure(getClass().getClassLoader())
                .dataSource(url.jdbcUrl(), url.user(), url.password())
                .schemas(Schema.NAME).defaultSchema(Schema.NAME)
                .locations(locations).target(target)
                .load().migrate();
    }

    private String appliedVersion() throws SQLException {
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT version FROM legate.flyway_schema_history"
                     + " WHERE success ORDER BY installed_rank DESC LIMIT 1")) {
            return rs.next() ? rs.getString(1) : "none";
        }
    }

    @Test
    void anEmptyDatabaseGetsEveryMigration() throws Exception {
        try (PostgresTaskStore store = PostgresTaskStore.open(url)) {
            assertThat(store.schemaVersion()).isEqualTo("5");
        }
        assertThat(appliedVersion()).isEqualTo("5");
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT table_name FROM information_schema.tables"
                     + " WHERE table_schema = 'legate' ORDER BY table_name")) {
            StringBuilder tables = new StringBuilder();
            while (rs.next()) {
                tables.append(rs.getString(1)).append(' ');
            }
            assertThat(tables.toString().trim()).isEqualTo("context_leases contexts events flyway_schema_history instances peer_key push_configs tasks");
        }
    }

    @Test
    void aSchemaLeftByAnOlderLegateIsUpgradedWithItsTasksKept() throws Exception {
        // A database at version 1 (before the owner column), holding a task written as version 1 wrote it.
        migrateAsAnotherLegate("1", Schema.LOCATION);
        assertThat(appliedVersion()).isEqualTo("1");
        Task t = task("old", "ctx", TaskState.TASK_STATE_COMPLETED, 1_000, 7);
        TaskEvent e = opened(1, t);
        try (Connection c = connect();
             PreparedStatement task = c.prepareStatement("INSERT INTO legate.tasks"
                     + " (id, context_id, state, status_seconds, status_nanos, last_seq, task) VALUES (?, ?, ?, ?, ?, ?, ?)");
             PreparedStatement event = c.prepareStatement("INSERT INTO legate.events (task_id, seq, event) VALUES (?, ?, ?)")) {
            task.setString(1, "old");
            task.setString(2, "ctx");
            task.setInt(3, TaskState.TASK_STATE_COMPLETED_VALUE);
            task.setLong(4, 1_000);
            task.setInt(5, 7);
            task.setLong(6, 1);
            task.setBytes(7, t.toByteArray());
            task.executeUpdate();
            event.setString(1, "old");
            event.setLong(2, 1);
            event.setBytes(3, e.event().toByteArray());
            event.executeUpdate();
        }

        try (PostgresTaskStore store = PostgresTaskStore.open(url)) {
            assertThat(store.schemaVersion()).isEqualTo("5");
            assertThat(store.get("old")).contains(t);
            assertThat(store.eventsAfter("old", 0)).containsExactly(new LoggedEvent(1, e.event()));
            Task next = task("new", TaskState.TASK_STATE_WORKING);
            store.append(opened(1, next), false);
            store.append(status(2, moved(next, TaskState.TASK_STATE_COMPLETED, 1)), true);
        }
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM legate.tasks WHERE coalesce(owner, '') = ''")) {
            rs.next();
            // NULL (a row from before owners were kept) and '' (written since) both mean the anonymous caller.
            assertThat(rs.getInt(1)).as("rows owned by the anonymous caller").isEqualTo(2);
        }
    }

    @Test
    void aSchemaFromANewerLegateIsRefusedNamingBothVersionsAndLeftUntouched() throws Exception {
        // Flyway by default ignores an applied migration it does not know; the store must not.
        migrateAsAnotherLegate("latest", Schema.LOCATION, "classpath:db/postgres-future");
        assertThat(appliedVersion()).isEqualTo("99");

        assertThatThrownBy(() -> PostgresTaskStore.open(url)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is at version 99 (\"from a newer legate\"), newer than the 5 this Legate knows")
                .hasMessageContaining("will not be downgraded or written to");
        assertThat(appliedVersion()).isEqualTo("99");
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM legate.flyway_schema_history")) {
            rs.next();
            assertThat(rs.getInt(1)).as("history rows: schema creation, V1, V2, V3, V4, V5, V99").isEqualTo(7);
        }
    }

    @Test
    void twoInstancesStartingTogetherMigrateOnce() throws Exception {
        // Several instances on one database start at once; Flyway's advisory lock serialises them.
        CompletableFuture<Void> other = CompletableFuture.runAsync(() -> PostgresTaskStore.open(url).close(),
                r -> Thread.ofVirtual().start(r));
        try (PostgresTaskStore store = PostgresTaskStore.open(url)) {
            assertThat(store.schemaVersion()).isEqualTo("5");
        }
        other.get(30, TimeUnit.SECONDS);
        try (Connection c = connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM legate.flyway_schema_history WHERE version = '1'")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(1);
        }
    }
}
