package legate.a2a.model;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Legate's own version, written once in the build (the root pom) and filtered into a resource. */
public final class LegateVersion {
    private static final String VERSION = load();

    private LegateVersion() {
    }

    public static String get() {
        return VERSION;
    }

    private static String load() {
        try (InputStream in = LegateVersion.class.getResourceAsStream("/legate/version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
