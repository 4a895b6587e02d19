package legate.revisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Legate's server and Revisor driven by the official JavaScript SDK client (@a2a-js/sdk 1.2.0,
 * pinned in interop/): createFromUrl, sendMessage, sendMessageStream, getTask, cancelTask,
 * listTasks and resubscribeTask, each check naming the A2A rule it asserts
 * (interop/a2a-client-check.mjs). A missing Node.js fails this test; it is never skipped.
 */
class RevisorInteropTest {
    private static AgentServer server;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        // The cancel and resubscribe checks must catch a task between steps: 300 ms per step.
        server = AgentServer.create(ServerConfig.loopback(0),
                p -> RevisorCard.build(null, "http://127.0.0.1:" + p + "/"),
                new RevisorExecutor(Duration.ofMillis(300)));
        port = server.start();
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop();
    }

    @Test
    void theOfficialJavaScriptClientSeesEveryRuleItChecksHeld() throws Exception {
        Path interop = projectRoot().resolve("interop");
        Path log = Files.createTempFile("legate-interop", ".log");
        ProcessBuilder pb = new ProcessBuilder(node(), "--test", "--test-reporter=tap", "a2a-client-check.mjs")
                .directory(interop.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().put("A2A_URL", "http://127.0.0.1:" + port);
        Process p = pb.start();
        try {
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                fail("the interop checks did not finish in 90 s:\n" + Files.readString(log));
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as("node exit status; output:\n%s", out).isZero();
            assertThat(out).contains("# fail 0");
            assertThat(out).containsPattern("# pass (1[3-9]|[2-9][0-9])");
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }

    static String node() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, "node");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        fail("Node.js >= 20 is required for the interop tests and was not found on PATH; install it and run again.");
        return null;
    }

    static Path projectRoot() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isDirectory(dir.resolve("interop"))) {
            dir = dir.getParent();
        }
        if (dir == null) {
            throw new IOException("cannot find the project's interop/ folder above " + Path.of("").toAbsolutePath());
        }
        return dir;
    }
}
