package legate.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Configuration keys as Legate reads them: the process environment first, then a {@code .env} file
 * in the working directory. Flags win over both; picocli asks this class only for options the
 * command line left out. A blank value means unset wherever it comes from, so {@code AGENT_NAME=}
 * in a file keeps the default instead of naming the agent "".
 */
public final class Settings {
    /** No setting at all: every option keeps its default. */
    static final Settings NONE = new Settings(Map.of(), Map.of());

    private final Map<String, String> env;
    private final Map<String, String> file;

    Settings(Map<String, String> env, Map<String, String> file) {
        this.env = env;
        this.file = file;
    }

    /** The real environment, and {@code .env} in {@code workingDir} when there is one. */
    public static Settings load(Path workingDir, Map<String, String> env) {
        Path dotenv = workingDir.resolve(".env");
        Map<String, String> file = Map.of();
        if (Files.isRegularFile(dotenv)) {
            try {
                file = parseDotenv(Files.readString(dotenv, StandardCharsets.UTF_8));
            } catch (IOException e) {
                System.err.println("legate: cannot read " + dotenv + ": " + e.getMessage() + " (ignored)");
            }
        }
        return new Settings(env, file);
    }

    /**
     * The keys {@code .env} sets that the environment does not (blank values left out): what
     * {@code legate bridge} adds to its agent's environment, which otherwise inherits only the
     * process's own, so an ANTHROPIC_API_KEY written in {@code .env} reaches the agent.
     */
    public Map<String, String> fromDotenvOnly() {
        Map<String, String> out = new HashMap<>();
        file.forEach((k, v) -> {
            String inEnv = env.get(k);
            if (v != null && !v.isBlank() && (inEnv == null || inEnv.isBlank())) {
                out.put(k, v);
            }
        });
        return Map.copyOf(out);
    }

    public Optional<String> get(String key) {
        String fromEnv = env.get(key);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return Optional.of(fromEnv);
        }
        String fromFile = file.get(key);
        if (fromFile != null && !fromFile.isBlank()) {
            return Optional.of(fromFile);
        }
        return Optional.empty();
    }

    /**
     * Reads {@code KEY=VALUE} lines: {@code #} starts a comment line, an optional {@code export }
     * prefix is dropped, and a value in matching single or double quotes loses its quotes. An
     * unquoted value ends at " #" (an inline comment).
     */
    public static Map<String, String> parseDotenv(String text) {
        Map<String, String> out = new HashMap<>();
        for (String raw : text.split("\r\n|\n|\r")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("export ")) {
                line = line.substring("export ".length()).strip();
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (value.length() >= 2 && (value.charAt(0) == '"' || value.charAt(0) == '\'')
                    && value.charAt(value.length() - 1) == value.charAt(0)) {
                value = value.substring(1, value.length() - 1);
            } else {
                int hash = value.indexOf(" #");
                if (hash >= 0) {
                    value = value.substring(0, hash).strip();
                }
            }
            out.put(key, value);
        }
        return out;
    }
}
