package legate.acp.connection;

import java.util.Set;

/**
 * Names of environment variables, each given exactly or by its prefix: how the bridge names what
 * an agent never inherits (Legate's own settings, {@code A2A_TOKEN_} for every
 * {@code A2A_TOKEN_<ALIAS>}).
 *
 * @param exact variables named in full
 * @param prefixes every variable whose name starts with one of these
 */
public record EnvironmentNames(Set<String> exact, Set<String> prefixes) {
    public static final EnvironmentNames NONE = new EnvironmentNames(Set.of(), Set.of());

    public EnvironmentNames {
        exact = Set.copyOf(exact);
        prefixes = Set.copyOf(prefixes);
        if (prefixes.contains("")) {
            throw new IllegalArgumentException("an empty prefix would name every variable");
        }
    }

    public boolean contains(String name) {
        if (exact.contains(name)) {
            return true;
        }
        for (String p : prefixes) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
