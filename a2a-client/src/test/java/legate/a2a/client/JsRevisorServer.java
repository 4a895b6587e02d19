package legate.a2a.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The reference Revisor server of {@code interop/revisor-server.mjs}, built on @a2a-js/sdk 1.2.0, run
 * as a real Node.js child process on a free loopback port. A missing Node.js or a missing
 * {@code npm ci} fails the test with what to do; interop is the point, so it is never skipped.
 */
final class JsRevisorServer implements AutoCloseable {
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final Process process;
    private final long pid;
    private final int port;

    private JsRevisorServer(Process process, int port) {
        this.process = process;
        this.pid = process.pid();
        this.port = port;
    }

    static JsRevisorServer start(Duration stepDelay) throws IOException, InterruptedException {
        Path interop = interopDir();
        if (!Files.isDirectory(interop.resolve("node_modules/@a2a-js/sdk"))) {
            throw new AssertionError("interop/node_modules is missing @a2a-js/sdk: run interop/install.sh "
                    + "(the Maven execution interop-npm-ci does it before the tests)");
        }
        Path log = Path.of("target", "js-revisor-server.log").toAbsolutePath();
        Files.createDirectories(log.getParent());
        ProcessBuilder pb = new ProcessBuilder("node", "revisor-server.mjs")
                .directory(interop.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("PORT", "0");
        pb.environment().put("STEP_DELAY_MS", Long.toString(stepDelay.toMillis()));
        Process process;
        try {
            process = pb.start();
        } catch (IOException e) {
            throw new AssertionError("Node.js >= 20 is required for the A2A interop tests and `node` could not be "
                    + "started (" + e.getMessage() + "); install Node.js and put it on PATH", e);
        }
        BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> firstLine = new CompletableFuture<>();
        Thread.ofVirtual().name("js-revisor-stdout").start(() -> {
            try {
                firstLine.complete(stdout.readLine());
                while (stdout.readLine() != null) {
                    // drained so the child never blocks on a full pipe
                }
            } catch (IOException e) {
                firstLine.completeExceptionally(e);
            }
        });
        String line;
        try {
            line = firstLine.get(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            throw new AssertionError("revisor-server.mjs did not print \"listening <port>\" within " + START_TIMEOUT
                    + "; see " + log, e);
        }
        if (line == null || !line.startsWith("listening ")) {
            process.destroyForcibly();
            throw new AssertionError("revisor-server.mjs exited or printed " + line + " instead of \"listening <port>\"; see " + log);
        }
        return new JsRevisorServer(process, Integer.parseInt(line.substring("listening ".length()).strip()));
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + port + "/");
    }

    /** Stops the child by its PID (SIGTERM, which the script handles) and waits for it to exit. */
    @Override
    public void close() {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
        try {
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("revisor-server.mjs (pid " + pid + ") ignored SIGTERM");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private static Path interopDir() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("interop/revisor-server.mjs"))) {
                return dir.resolve("interop");
            }
        }
        throw new AssertionError("interop/revisor-server.mjs not found above " + Path.of("").toAbsolutePath());
    }
}
