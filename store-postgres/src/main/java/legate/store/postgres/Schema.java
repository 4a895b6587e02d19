package legate.store.postgres;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.MigrationInfoService;
import org.flywaydb.core.api.MigrationVersion;

/**
 * The store's tables, in a PostgreSQL schema of their own: created on the first start, upgraded
 * when an older Legate left them, refused when a newer one did.
 *
 * <p>The migrations are the versioned scripts in {@code src/main/resources/db/postgres}
 * ({@code V1__tasks.sql}, ...), applied by Flyway, which records them in
 * {@code legate.flyway_schema_history}. A migration is never edited once released: a change is a
 * new script with the next number. Several instances starting at once are safe: Flyway holds a
 * PostgreSQL advisory lock while it migrates.
 *
 * <p>A schema newer than this build (a later Legate migrated it, then this one was started
 * again) is refused before anything is read or written: this build cannot know what the newer
 * columns mean, and writing rows without them could break the newer one. Flyway's own default
 * ignores such "future" migrations; here it is told not to, and the check below names both
 * versions in words before Flyway gets a say.
 */
final class Schema {
    /** The PostgreSQL schema that holds the tables, so a database shared with other programs keeps them apart. */
    static final String NAME = "legate";
    /** Where the migration scripts are on the class path. */
    static final String LOCATION = "classpath:db/postgres";

    private Schema() {
    }

    /**
     * Brings the schema to this build's version.
     *
     * @return the version the schema is at afterwards
     * @throws IllegalStateException when the schema is newer than this build, or a migration failed
     */
    static String migrate(DataSource dataSource) {
        Flyway flyway = Flyway.configure(Schema.class.getClassLoader())
                .dataSource(dataSource)
                .schemas(NAME)
                .defaultSchema(NAME)
                .locations(LOCATION)
                // Flyway ignores applied migrations it does not know ("*:future") unless told otherwise.
                .ignoreMigrationPatterns(new String[0])
                .cleanDisabled(true)
                .load();
        try {
            refuseNewer(flyway.info());
            flyway.migrate();
            MigrationInfo current = flyway.info().current();
            return current == null ? "none" : current.getVersion().getVersion();
        } catch (FlywayException e) {
            throw new IllegalStateException("the PostgreSQL schema '" + NAME + "' could not be migrated: " + e.getMessage(), e);
        }
    }

    private static void refuseNewer(MigrationInfoService info) {
        MigrationInfo applied = info.current();
        MigrationVersion known = null;
        for (MigrationInfo m : info.all()) {
            if (m.getState().isResolved() && m.getVersion() != null
                    && (known == null || m.getVersion().isNewerThan(known))) {
                known = m.getVersion();
            }
        }
        if (applied != null && applied.getVersion() != null && known != null && applied.getVersion().isNewerThan(known)) {
            throw new IllegalStateException("the PostgreSQL schema '" + NAME + "' is at version "
                    + applied.getVersion().getVersion() + " (\"" + applied.getDescription() + "\"), newer than the "
                    + known.getVersion() + " this Legate knows: a newer Legate has upgraded this database. "
                    + "Run that Legate (or a newer one), or point DATABASE_URL at another database; "
                    + "this one will not be downgraded or written to.");
        }
    }
}
