package legate.store.postgres;

import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;

/**
 * What {@code legate doctor} reports about a PostgreSQL store before a server opens it, without
 * changing it: whether the database answers, and the schema's version against this build's.
 *
 * @param where the database, without the password
 * @param version the schema's version, "none" before the first start
 * @param latest the version this build migrates to
 * @param pending migrations a start would apply
 * @param problem why the store cannot be used, or null
 */
public record PostgresStoreCheck(String where, String version, String latest, int pending, String problem) {
    /** How long to wait for the server, in seconds: a doctor must not hang on a firewall. */
    static final int CONNECT_TIMEOUT_S = 5;

    public static PostgresStoreCheck of(DatabaseUrl url) {
        // The driver's own timeouts, as URL parameters: the driver is reached through JDBC only.
        String jdbc = url.jdbcUrl() + (url.jdbcUrl().contains("?") ? "&" : "?") + "connectTimeout=" + CONNECT_TIMEOUT_S
                + "&loginTimeout=" + CONNECT_TIMEOUT_S + "&ApplicationName=legate-doctor";
        Flyway flyway = Flyway.configure(PostgresStoreCheck.class.getClassLoader())
                .dataSource(jdbc, url.user().isEmpty() ? null : url.user(), url.password().isEmpty() ? null : url.password())
                .schemas(Schema.NAME).defaultSchema(Schema.NAME).locations(Schema.LOCATION)
                .ignoreMigrationPatterns(new String[0]).cleanDisabled(true).load();
        String where = url.toString();
        try {
            MigrationInfoService info = flyway.info();
            MigrationInfo current = info.current();
            String latest = "none";
            for (MigrationInfo m : info.all()) {
                if (m.getState().isResolved() && m.getVersion() != null) {
                    latest = m.getVersion().getVersion();
                }
            }
            String version = current == null || current.getVersion() == null ? "none" : current.getVersion().getVersion();
            String problem = null;
            if (current != null && current.getVersion() != null && !current.getState().isResolved()) {
                problem = "the schema '" + Schema.NAME + "' is at version " + version + ", newer than the " + latest
                        + " this Legate knows: a newer Legate has upgraded this database";
            }
            return new PostgresStoreCheck(where, version, latest, info.pending().length, problem);
        } catch (FlywayException e) {
            // The driver's message names host and cause; it never holds the password.
            return new PostgresStoreCheck(where, "unknown", "unknown", 0, "cannot reach " + where + ": "
                    + firstLine(e.getMessage()));
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "no reason given";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }
}
