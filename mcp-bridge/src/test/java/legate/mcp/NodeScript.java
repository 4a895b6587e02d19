package legate.mcp;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A node:test script under {@code interop/}, run with the TAP reporter. A missing Node.js fails the
 * test: interop with the official SDKs is the point, so it is never skipped.
 *
 * @param exitCode node's exit status
 * @param output everything it printed, stdout and stderr together
 */
record NodeScript(int exitCode, String output) {

    static NodeScript run(String script, Map<String, String> env, long timeoutSeconds) throws Exception {
        Path log = Files.createTempFile("legate-mcp-interop", ".log");
        ProcessBuilder pb = new ProcessBuilder(node(), "--test", "--test-reporter=tap", script)
                .directory(interop().toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                fail(script + " did not finish in " + timeoutSeconds + " s:\n" + Files.readString(log));
            }
            return new NodeScript(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }

    private static String node() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "node");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        fail("Node.js >= 20 is required for the interop tests and was not found on PATH; install it and run again.");
        return null;
    }

    private static Path interop() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("interop").resolve("node_modules"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IOException("cannot find interop/node_modules above " + Path.of("").toAbsolutePath()
                    + "; interop/install.sh installs it");
        }
        return dir.resolve("interop");
    }

    /** The names of the checks that failed, from the TAP lines, for the assertion message. */
    List<String> failures() {
        return output.lines().filter(l -> l.strip().startsWith("not ok")).toList();
    }
}
