package legate.acp.connection;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How to start an ACP agent: the program and its arguments (no shell involved), and the changes to
 * the bridge's own environment the child gets.
 *
 * @param argv the program first, then its arguments
 * @param unsetEnv variables removed from the child's environment because they break the agent (IS_SANDBOX)
 * @param setEnv variables added or replaced in it
 * @param withheld variables the child never inherits, whoever set them: Legate's own settings and secrets
 */
public record AdapterCommand(List<String> argv, Set<String> unsetEnv, Map<String, String> setEnv,
                             EnvironmentNames withheld) {

    public AdapterCommand {
        if (argv == null || argv.isEmpty() || argv.get(0).isBlank()) {
            throw new IllegalArgumentException("an agent command names a program");
        }
        argv = List.copyOf(argv);
        unsetEnv = Set.copyOf(unsetEnv);
        setEnv = Map.copyOf(setEnv);
        if (withheld == null) {
            withheld = EnvironmentNames.NONE;
        }
    }

    /** A command that withholds nothing beyond {@code unsetEnv}. */
    public AdapterCommand(List<String> argv, Set<String> unsetEnv, Map<String, String> setEnv) {
        this(argv, unsetEnv, setEnv, EnvironmentNames.NONE);
    }

    public static AdapterCommand of(List<String> argv) {
        return new AdapterCommand(argv, Set.of(), Map.of());
    }

    public AdapterCommand withoutEnv(String name) {
        Set<String> unset = new HashSet<>(unsetEnv);
        unset.add(name);
        return new AdapterCommand(argv, unset, setEnv, withheld);
    }

    /** Whether the child's environment goes without {@code name}, whatever the bridge's own holds. */
    public boolean unsets(String name) {
        return unsetEnv.contains(name) || withheld.contains(name);
    }

    /** The program's file name, for messages: {@code codex-acp}, {@code node}. */
    public String program() {
        String p = argv.get(0);
        int slash = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
        return slash >= 0 ? p.substring(slash + 1) : p;
    }

    /** The command as one line for logs; arguments with spaces are quoted. */
    public String display() {
        StringBuilder sb = new StringBuilder();
        for (String a : argv) {
            if (!sb.isEmpty()) {
                sb.append(' ');
            }
            sb.append(a.isEmpty() || a.chars().anyMatch(Character::isWhitespace) ? "'" + a + "'" : a);
        }
        return sb.toString();
    }
}
