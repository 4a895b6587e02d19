package legate.store.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The store's schema versions: the SQL files under {@code db/sqlite/} ({@code V1__tasks.sql},
 * {@code V2__...}), applied in order when a store opens, each in its own transaction together with
 * the version it reaches, which the file keeps in {@code PRAGMA user_version}. A file at an older
 * version is upgraded; a file at a newer version than this build knows is refused, naming both.
 *
 * <p>Why not Flyway, whose core does support SQLite: measured here, it added about 400 ms to every
 * start (nothing to migrate included) against a cold start of about half a second that
 * docs/benchmarks.md defends, and by default it skips over a schema newer than it knows, which this
 * store must refuse. What is left to do is a loop over numbered files.
 */
final class Schema {
    /** "Lgt1" in the file's header: a SQLite file that is not a Legate store is not written to. */
    static final int APPLICATION_ID = 0x4c677431;
    private static final Pattern NAME = Pattern.compile("V(\\d+)__[A-Za-z0-9_]+\\.sql");

    /** The migrations this build knows, in order: the version of the n-th is n. */
    static final Schema CURRENT = new Schema(List.of("db/sqlite/V1__tasks.sql", "db/sqlite/V2__owner.sql",
            "db/sqlite/V3__push.sql", "db/sqlite/V4__event_chunks.sql"));

    private final List<String> migrations;

    Schema(List<String> migrations) {
        for (int i = 0; i < migrations.size(); i++) {
            String name = Path.of(migrations.get(i)).getFileName().toString();
            Matcher m = NAME.matcher(name);
            if (!m.matches() || Integer.parseInt(m.group(1)) != i + 1) {
                throw new IllegalArgumentException("migration " + (i + 1) + " is named " + name
                        + "; expected V" + (i + 1) + "__description.sql");
            }
        }
        this.migrations = List.copyOf(migrations);
    }

    /** This schema with one more migration after the last (tests build a future version so). */
    Schema plus(String resource) {
        List<String> more = new ArrayList<>(migrations);
        more.add(resource);
        return new Schema(more);
    }

    /** The migrations' resource paths, in order. */
    List<String> migrations() {
        return migrations;
    }

    int latest() {
        return migrations.size();
    }

    /** Brings the file on {@code c} (the writer's connection) to {@link #latest()}, or refuses it. */
    void migrate(Connection c, Path file) throws SQLException {
        try (Statement s = c.createStatement()) {
            int applicationId = intPragma(s, "application_id");
            int version = intPragma(s, "user_version");
            if (applicationId != APPLICATION_ID && (applicationId != 0 || version != 0 || hasTables(s))) {
                throw new IllegalStateException(file + " is a SQLite file but not a Legate task store"
                        + " (application_id " + applicationId + "); point DATA_DIR at a folder of its own");
            }
            if (version > latest()) {
                throw new IllegalStateException(file + " has schema version " + version
                        + ", newer than the " + latest() + " this build of Legate knows: a newer Legate wrote it."
                        + " Run that version, or point DATA_DIR elsewhere");
            }
            for (int v = version + 1; v <= latest(); v++) {
                apply(s, v, file);
            }
        }
    }

    private void apply(Statement s, int version, Path file) throws SQLException {
        String resource = migrations.get(version - 1);
        String script = read(resource);
        s.executeUpdate("BEGIN IMMEDIATE");
        try {
            s.executeUpdate(script);
            s.executeUpdate("PRAGMA application_id = " + APPLICATION_ID);
            s.executeUpdate("PRAGMA user_version = " + version);
            s.executeUpdate("COMMIT");
        } catch (SQLException | RuntimeException e) {
            s.executeUpdate("ROLLBACK");
            throw new SqliteStoreException("cannot upgrade " + file + " to schema version " + version + " ("
                    + resource + "): " + e.getMessage(), e);
        }
    }

    private static int intPragma(Statement s, String name) throws SQLException {
        try (ResultSet r = s.executeQuery("PRAGMA " + name)) {
            return r.next() ? r.getInt(1) : 0;
        }
    }

    private static boolean hasTables(Statement s) throws SQLException {
        try (ResultSet r = s.executeQuery("SELECT 1 FROM sqlite_schema LIMIT 1")) {
            return r.next();
        }
    }

    private static String read(String resource) {
        try (InputStream in = Schema.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("migration " + resource + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read migration " + resource, e);
        }
    }
}
