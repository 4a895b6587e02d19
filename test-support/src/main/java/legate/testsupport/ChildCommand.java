package legate.testsupport;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A command line to run as a child of the test's JVM: a folder, environment changes, then either
 * {@link #run} to its end within a bound, or {@link #start} for a child that keeps running (a
 * server). Output is always drained, so a child never blocks on a full pipe.
 */
public final class ChildCommand {
    private final List<String> argv;
    private Path dir;
    // A null value removes the variable from the inherited environment.
    private final Map<String, String> env = new LinkedHashMap<>();

    private ChildCommand(List<String> argv) {
        this.argv = List.copyOf(argv);
    }

    public static ChildCommand of(String... argv) {
        return new ChildCommand(List.of(argv));
    }

    public static ChildCommand of(List<String> argv) {
        return new ChildCommand(argv);
    }

    /** {@code main} run by this JVM's own java binary with this JVM's class path. */
    public static ChildCommand java(Class<?> main, String... args) {
        List<String> argv = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), main.getName()));
        argv.addAll(List.of(args));
        return new ChildCommand(argv);
    }

    public ChildCommand in(Path dir) {
        this.dir = dir;
        return this;
    }

    /** Sets a variable; a null value removes it from what the child inherits. */
    public ChildCommand env(String key, String value) {
        env.put(key, value);
        return this;
    }

    public ChildCommand env(Map<String, String> variables) {
        env.putAll(variables);
        return this;
    }

    /** Removes variables the child would otherwise inherit from the test's environment. */
    public ChildCommand without(String... keys) {
        for (String key : keys) {
            env.put(key, null);
        }
        return this;
    }

    public List<String> argv() {
        return argv;
    }

    /** The PATH the child will see. */
    String path() {
        return env.containsKey("PATH") ? env.get("PATH") : System.getenv("PATH");
    }

    /** Starts the child; a program that cannot be started fails the test, naming it. */
    public RunningChild start() {
        ProcessBuilder pb = new ProcessBuilder(argv);
        if (dir != null) {
            pb.directory(dir.toFile());
        }
        env.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        try {
            return new RunningChild(argv, pb.start());
        } catch (IOException e) {
            throw new AssertionError("cannot start " + argv.get(0) + " (" + e.getMessage() + "); is it installed?", e);
        }
    }

    /**
     * Runs the child to its end. One that outlives {@code timeout} is killed with everything it
     * started, and the test fails with what it printed.
     */
    public ChildRun run(Duration timeout) {
        try (RunningChild child = start()) {
            return child.awaitExit(timeout);
        }
    }

    @Override
    public String toString() {
        return String.join(" ", argv);
    }
}
