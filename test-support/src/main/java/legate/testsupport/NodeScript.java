package legate.testsupport;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Node.js script of the checkout's {@code interop/} folder, run with the official JavaScript
 * SDKs pinned there: {@code NodeScript.test("a2a-client-check.mjs").env("A2A_URL", url).run(limit)}.
 *
 * <p>The first use in a JVM runs {@code interop/install.sh}, which runs {@code npm ci} when
 * {@code node_modules} is missing or older than the lockfile. A missing Node.js fails the test
 * with what to install: interop with the reference SDKs is the point of these tests, so they are
 * never skipped.
 */
public final class NodeScript {
    private static final Duration INSTALL_LIMIT = Duration.ofMinutes(10);
    // Guarded by NodeScript.class: the folders whose install.sh has succeeded in this JVM.
    private static final Set<String> INSTALLED = new HashSet<>();

    private final String script;
    private final List<String> options;
    private final List<String> args;
    private final Map<String, String> env = new LinkedHashMap<>();

    private NodeScript(String script, List<String> options, List<String> args) {
        this.script = script;
        this.options = options;
        this.args = args;
    }

    /** {@code node interop/SCRIPT ARGS}. */
    public static NodeScript of(String script, String... args) {
        return new NodeScript(script, List.of(), List.of(args));
    }

    /** {@code node --test} on a node:test file, its checks printed as TAP lines ({@link #failedChecks}). */
    public static NodeScript test(String script) {
        return new NodeScript(script, List.of("--test", "--test-reporter=tap"), List.of());
    }

    public NodeScript env(String key, String value) {
        env.put(key, value);
        return this;
    }

    public NodeScript env(Map<String, String> variables) {
        env.putAll(variables);
        return this;
    }

    /** Runs the script to its end; one that outlives {@code timeout} is killed with its children. */
    public ChildRun run(Duration timeout) {
        return command().run(timeout);
    }

    /** Starts the script and leaves it running (a server); close the result to stop it. */
    public RunningChild start() {
        return command().start();
    }

    /**
     * The command line ({@code node}'s absolute path, the script's absolute path, the arguments),
     * for a test that hands it to a launcher of its own, such as the bridge's agent command.
     */
    public List<String> commandLine() {
        return command().argv();
    }

    private ChildCommand command() {
        String path = env.containsKey("PATH") ? env.get("PATH") : System.getenv("PATH");
        String node = node(path, script);
        Path interop = installed("interop");
        Path file = interop.resolve(script);
        if (!Files.isRegularFile(file)) {
            throw new AssertionError("interop/" + script + " is missing from the checkout");
        }
        List<String> argv = new ArrayList<>();
        argv.add(node);
        argv.addAll(options);
        argv.add(file.toString());
        argv.addAll(args);
        return ChildCommand.of(argv).in(interop).env(env);
    }

    /** The {@code node} found on {@code path}; its absence fails the test, naming what to install. */
    static String node(String path, String script) {
        for (String dir : (path == null ? "" : path).split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, "node");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new AssertionError("Node.js >= 20 is required to run interop/" + script + " and `node` was not found on "
                + "PATH (" + path + "); install Node.js 20 or newer with npm, then run the build again");
    }

    /**
     * A folder of the checkout with an {@code install.sh} ({@code interop}, {@code adapters}), its
     * pinned npm packages installed: the script runs once per JVM and is a no-op when they are
     * current. Its failure (no Node.js, no npm, a failed {@code npm ci}) fails the test with its words.
     */
    public static synchronized Path installed(String folder) {
        Path dir = SourceTree.resolve(folder);
        if (!INSTALLED.contains(folder)) {
            ChildRun run = ChildCommand.of("sh", dir.resolve("install.sh").toString()).run(INSTALL_LIMIT);
            if (run.exitCode() != 0) {
                throw new AssertionError(folder + "/install.sh failed with exit status " + run.exitCode() + ":\n"
                        + run.output());
            }
            INSTALLED.add(folder);
        }
        return dir;
    }

    /** The TAP lines of the checks that failed ({@code not ok …}), for an assertion and its message. */
    public static List<String> failedChecks(ChildRun run) {
        return run.stdout().lines().filter(l -> l.strip().startsWith("not ok")).toList();
    }
}
