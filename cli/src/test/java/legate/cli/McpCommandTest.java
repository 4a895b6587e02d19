package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.testsupport.ChildCommand;
import legate.testsupport.Cleanup;
import legate.testsupport.RunningChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legate mcp} as a real process: it prints its token and the exact line that connects
 * Claude Code, writes the token to .mcp-token readable by its owner only, and that line's token
 * is the one the endpoint accepts.
 */
class McpCommandTest {
    // The mcp process is stopped after the test, and nothing it started may outlive it.
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    @Test
    void printsAWorkingClaudeMcpAddLineAndKeepsTheTokenPrivate(@TempDir Path dir) throws Exception {
        RunningChild mcp = cleanup.register(ChildCommand.java(Legate.class, "mcp", "--port", "0").in(dir)
                .without("MCP_TOKEN", "MCP_HOST", "MCP_PORT", "AGENT_NAME", "A2A_AGENTS", "A2A_URL").start());
        Matcher m = mcp.awaitLine(Pattern.compile("claude mcp add --transport http (\\S+) (http://127\\.0\\.0\\.1:\\d+/mcp) "
                + "--header \"Authorization: Bearer ([A-Za-z0-9_-]+)\""), Duration.ofSeconds(30));
        assertThat(m.group(1)).isEqualTo("legate-mcp");
        String token = m.group(3);
        Path tokenFile = dir.resolve(".mcp-token");
        assertThat(Files.readString(tokenFile).strip()).isEqualTo(token);
        assertThat(Files.getPosixFilePermissions(tokenFile))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";
        HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(m.group(2)))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(init));
        HttpResponse<String> without = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(without.statusCode()).isEqualTo(401);
        assertThat(without.headers().firstValue("WWW-Authenticate")).isPresent();
        HttpResponse<String> with = http.send(req.header("Authorization", "Bearer " + token).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(with.statusCode()).isEqualTo(200);
        assertThat(with.body()).contains("legate-mcp");
    }

    /**
     * DEFECT (issue 30): left to the JVM, SIGTERM exited 143, which systemd records as a failure
     * after {@code legate service stop} (which stops legate-mcp too); a stop by SIGTERM is exit 0.
     */
    @Test
    void aSigtermStopsItWithExitStatusZero(@TempDir Path dir) throws Exception {
        RunningChild mcp = cleanup.register(ChildCommand.java(Legate.class, "mcp", "--port", "0").in(dir)
                .without("MCP_TOKEN", "MCP_HOST", "MCP_PORT", "AGENT_NAME", "A2A_AGENTS", "A2A_URL").start());
        mcp.awaitLine(Pattern.compile("legate mcp is listening on"), Duration.ofSeconds(30));
        Process p = mcp.process();
        // On Unix, ProcessHandle.destroy is SIGTERM (normal termination), as systemd sends it, at
        // once after the first start-up line.
        assertThat(p.toHandle().supportsNormalTermination()).isTrue();
        assertThat(p.toHandle().destroy()).isTrue();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("stopped within 20 s of SIGTERM").isTrue();
        assertThat(p.exitValue()).isZero();
    }
}
