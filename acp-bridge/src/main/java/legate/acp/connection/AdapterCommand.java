package legate.acp.connection;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * How to start an ACP agent: the program and its arguments (no shell involved), and the changes to
 * the bridge's own environment the child gets.
 *
 * @param argv the program first, then its arguments
 * @param unsetEnv variables removed from the child's environment
 * @param setEnv variables added or replaced in it
 */
public record AdapterCommand(List<String> argv, Set<String> unsetEnv, Map<String, String> setEnv) {

    public AdapterCommand {
        if (argv == null || argv.isEmpty() || argv.get(0).isBlank()) {
            throw new IllegalArgumentException("an agent command names a program");
        }
        argv = List.copyOf(argv);
        unsetEnv = Set.copyOf(unsetEnv);
        setEnv = Map.copyOf(setEnv);
    }

    public static AdapterCommand of(List<String> argv) {
        return new AdapterCommand(argv, Set.of(), Map.of());
    }

    public AdapterCommand withoutEnv(String name) {
        java.util.Set<String> unset = new java.util.HashSet<>(unsetEnv);
        unset.add(name);
        return new AdapterCommand(argv, unset, setEnv);
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
