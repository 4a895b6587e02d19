package legate.cli.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What an installed service is configured with: the person's configuration at install time (their
 * {@code .env} and the Legate keys set in their environment), plus what the service pins (the MCP
 * token), written as the service's own {@code .env}, mode 600, since it holds secrets.
 *
 * @param values the keys and values, in a stable order
 */
public record ServiceEnvironment(Map<String, String> values) {
    /** The variables the launcher itself reads: set in the unit, since a shell script does not read {@code .env}. */
    static final List<String> LAUNCHER_KEYS = List.of("PATH", "JAVA_HOME", "LEGATE_JAVA_OPTS", "LEGATE_CDS");
    /** The server's own drain before it stops (the bridge finishing its turns), when none is configured. */
    static final long DEFAULT_SHUTDOWN_GRACE_MS = 10_000;

    public ServiceEnvironment {
        values = new TreeMap<>(values);
    }

    public Optional<String> get(String key) {
        String v = values.get(key);
        return v == null || v.isBlank() ? Optional.empty() : Optional.of(v);
    }

    /**
     * The configuration a service is installed with: every entry of the person's {@code .env}, then
     * each key Legate reads that their environment sets (the environment wins, as it does when
     * Legate starts), without the launcher's variables, which go in the unit.
     */
    public static ServiceEnvironment from(Map<String, String> dotenv, Map<String, String> env, Iterable<String> legateKeys) {
        Map<String, String> v = new LinkedHashMap<>();
        dotenv.forEach((k, val) -> {
            if (!val.isBlank()) {
                v.put(k, val);
            }
        });
        for (String key : legateKeys) {
            String val = env.get(key);
            if (val != null && !val.isBlank()) {
                v.put(key, val);
            }
        }
        LAUNCHER_KEYS.forEach(v::remove);
        return new ServiceEnvironment(v);
    }

    ServiceEnvironment with(String key, String value) {
        Map<String, String> v = new TreeMap<>(values);
        v.put(key, value);
        return new ServiceEnvironment(v);
    }

    /** The unit's own variables: the launcher's, taken from the installing shell. */
    public static Map<String, String> unitVariables(Map<String, String> env) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String key : LAUNCHER_KEYS) {
            String v = env.get(key);
            if (v != null && !v.isBlank()) {
                out.put(key, v);
            }
        }
        return out;
    }

    /** How long the manager waits after SIGTERM: the server's drain and 20 s for the JVM to finish. */
    Duration stopTimeout() {
        long grace = DEFAULT_SHUTDOWN_GRACE_MS;
        Optional<String> configured = get("SHUTDOWN_GRACE_MS");
        if (configured.isPresent()) {
            try {
                grace = Math.max(0, Long.parseLong(configured.get().strip()));
            } catch (NumberFormatException e) {
                // Legate refuses it at start with its own message; the default timeout stands.
            }
        }
        return Duration.ofMillis(grace).plusSeconds(20).withNanos(0);
    }

    /** A fresh bearer token: 32 bytes from the system's secure random source, base64url. */
    static String newToken() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    /** Writes the file, created with mode 600 before any secret is in it. */
    void write(Path file) throws IOException {
        StringBuilder b = new StringBuilder("# Written by `legate service install` from your configuration; ")
                .append("edit it, then `legate service restart`.\n");
        for (Map.Entry<String, String> e : values.entrySet()) {
            b.append(UnitValue.dotenvLine(e.getKey(), e.getValue())).append('\n');
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".new");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, b);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }
}
