package legate.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code legate doctor} reports about a SQLite store before a server opens it: a file still to
 * be created, one held by a running store (a second could not open it), a schema from a newer Legate
 * and a SQLite file that is not a store, all without changing the file.
 */
class SqliteStoreCheckTest {
    @TempDir
    Path dir;

    @Test
    void aMissingFileIsCreatedAtStartAndTheCheckDoesNotCreateIt() {
        SqliteStoreCheck check = SqliteStoreCheck.of(dir.resolve("data"));
        assertThat(check.exists()).isFalse();
        assertThat(check.problem()).isNull();
        assertThat(dir.resolve("data")).doesNotExist();
    }

    @Test
    void aStoreHeldByARunningLegateIsInUseAndFreeOnceClosed() {
        try (SqliteTaskStore store = SqliteTaskStore.open(dir)) {
            SqliteStoreCheck held = SqliteStoreCheck.of(dir);
            assertThat(held.inUse()).isTrue();
            assertThat(held.version()).isEqualTo(held.latest());
        }
        SqliteStoreCheck free = SqliteStoreCheck.of(dir);
        assertThat(free.inUse()).isFalse();
        assertThat(free.problem()).isNull();
    }

    @Test
    void aFileFromANewerLegateAndAForeignSqliteFileAreProblems() throws Exception {
        Path newer = Files.createDirectories(dir.resolve("newer"));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + newer.resolve(SqliteTaskStore.FILE_NAME));
             Statement s = c.createStatement()) {
            s.executeUpdate("PRAGMA application_id = " + Schema.APPLICATION_ID);
            s.executeUpdate("PRAGMA user_version = 99");
        }
        assertThat(SqliteStoreCheck.of(newer).problem()).contains("schema version 99").contains("newer than the");

        Path foreign = Files.createDirectories(dir.resolve("foreign"));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + foreign.resolve(SqliteTaskStore.FILE_NAME));
             Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE notes (x)");
            s.executeUpdate("PRAGMA user_version = 3");
        }
        assertThat(SqliteStoreCheck.of(foreign).problem()).contains("not a Legate task store");
    }
}
