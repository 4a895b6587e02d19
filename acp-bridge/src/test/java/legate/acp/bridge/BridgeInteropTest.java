package legate.acp.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.ServerConfig;
import legate.acp.adapter.AdapterConfig;
import legate.acp.adapter.BackendChoice;
import legate.acp.log.BridgeLogs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge between two reference SDKs: interop/acp-agent.mjs (an agent written with
 * @agentclientprotocol/sdk) behind it, the official A2A JS client (@a2a-js/sdk) in front, running
 * interop/acp-bridge-check.mjs. A missing Node.js fails this test; it is never skipped.
 */
class BridgeInteropTest {
    @TempDir
    Path dir;

    @Test
    void theOfficialClientDrivesTheOfficialAgentThroughTheBridge() throws Exception {
        Path interop = project().resolve("interop");
        BackendChoice agent = BackendChoice.commandLine("'" + node() + "' '" + interop.resolve("acp-agent.mjs") + "'",
                "careful");
        AdapterConfig adapters = new AdapterConfig(dir.resolve("sandboxes"), null, Duration.ofMinutes(5),
                Duration.ofSeconds(20), Duration.ofMillis(500), AdapterConfig.DEFAULT_MAX_LINE_CHARS);
        Bridge bridge = Bridge.create(new BridgeConfig(ServerConfig.loopback(0), null, null, agent, adapters, false,
                dir.resolve("logs"), BridgeLogs.DEFAULT_MAX_BYTES, BridgeLogs.DEFAULT_MAX_FILES, dir));
        int port = bridge.start();
        try {
            runCheck(interop, port);
        } finally {
            bridge.stop();
        }
    }

    private void runCheck(Path interop, int port) throws Exception {
        Path log = dir.resolve("check.log");
        ProcessBuilder pb = new ProcessBuilder(node(), "--test", "--test-reporter=tap", "acp-bridge-check.mjs")
                .directory(interop.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("A2A_URL", "http://127.0.0.1:" + port);
        Process p = pb.start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                fail("the interop checks did not finish in 120 s:\n" + Files.readString(log));
            }
            String out = Files.readString(log, StandardCharsets.UTF_8);
            assertThat(p.exitValue()).as("node exit status; output:\n%s", out).isZero();
            assertThat(out).contains("# fail 0").contains("# pass 7");
        } finally {
            p.destroyForcibly();
        }
    }

    static String node() {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(d, "node");
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        fail("Node.js >= 20 is required for the interop tests and was not found on PATH; install it and run again.");
        return null;
    }

    static Path project() {
        return Path.of("").toAbsolutePath().getParent();
    }
}
