package legate.tap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.BearerTokens;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.TokensFile;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.SourceTree;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code scripts/raw.sh}, run as a person would run it, against our server with Revisor. */
class RawScriptTest {
    private static final Duration RUN_LIMIT = Duration.ofSeconds(90);
    private static final Path SCRIPT = SourceTree.resolve("scripts/raw.sh");

    // Stops the agent after the class; no curl may outlive its run, no stream its test.
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static String agentUrl;

    @BeforeAll
    static void startAgent() throws Exception {
        AgentServer agent = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"),
                new RevisorExecutor(Duration.ofMillis(20)));
        agentUrl = "http://127.0.0.1:" + cleanup.start("the agent", agent, AgentServer::start, AgentServer::openStreams);
    }

    // Rule: raw.sh shows what it claims, step by step: the card, -32009 without A2A-Version, the
    // whole Task, SSE frames, and GetTask finding the task of step 3 after its call ended.
    @Test
    void rawScriptWalksTheProtocolAgainstOurServer() throws Exception {
        ChildRun run = ChildCommand.of("bash", SCRIPT.toString()).in(SCRIPT.getParent())
                .env("AGENT", agentUrl).run(RUN_LIMIT);

        assertShowsEveryStep(run);
    }

    // Rule (A2A §11): BINDING=REST walks the same steps over HTTP+JSON: the card's REST URL, the
    // version refused with VERSION_NOT_SUPPORTED, the bare SendMessageResponse, frames without an
    // envelope, GET /tasks/{id}; with bash and curl only, so the patterns need no JSON parser.
    @Test
    void rawScriptWalksTheProtocolOverRest() throws Exception {
        Path bin = Files.createTempDirectory("raw-sh-path");
        Path bash = Files.createSymbolicLink(bin.resolve("bash"), onPath("bash"));
        Path curl = Files.createSymbolicLink(bin.resolve("curl"), onPath("curl"));
        try {
            ChildRun run = ChildCommand.of(bash.toString(), SCRIPT.toString()).in(SCRIPT.getParent())
                    .env("AGENT", agentUrl).env("BINDING", "rest").env("PATH", bin.toString()).run(RUN_LIMIT);

            String out = run.output();
            assertThat(run.exitCode()).as("raw.sh output:\n%s", out).isZero();
            assertThat(out).contains("/message:send", "/message:stream", "VERSION_NOT_SUPPORTED", "over HTTP+JSON")
                    .contains("{\"task\":{\"id\":\"").doesNotContain("\"jsonrpc\"");
            Matcher id = Pattern.compile("task id: ([0-9a-f-]{36})").matcher(out);
            assertThat(id.find()).as(out).isTrue();
            assertThat(section(out, "== 5.", "all 5 steps")).contains("/tasks/" + id.group(1), "TASK_STATE_COMPLETED");
            assertThat(section(out, "== 4.", "== 5.").lines().filter(l -> l.startsWith("-- frame ")).count())
                    .isGreaterThanOrEqualTo(4);
        } finally {
            Files.delete(bash);
            Files.delete(curl);
            Files.delete(bin);
        }
    }

    // Rule: raw.sh needs nothing but bash and curl; without jq or python3 it prints JSON as it came.
    @Test
    void rawScriptNeedsOnlyBashAndCurl() throws Exception {
        Path bin = Files.createTempDirectory("raw-sh-path");
        Path bash = Files.createSymbolicLink(bin.resolve("bash"), onPath("bash"));
        Path curl = Files.createSymbolicLink(bin.resolve("curl"), onPath("curl"));
        try {
            ChildRun run = ChildCommand.of(bash.toString(), SCRIPT.toString()).in(SCRIPT.getParent())
                    .env("AGENT", agentUrl).env("PATH", bin.toString()).run(RUN_LIMIT);

            assertShowsEveryStep(run);
            assertThat(run.output()).contains("{\"jsonrpc\":\"2.0\",\"id\":\"raw-3\",\"result\":{\"task\":{");
        } finally {
            Files.delete(bash);
            Files.delete(curl);
            Files.delete(bin);
        }
    }

    // README "Security", clients: TOKEN= sends the bearer token on steps 2-5, and the commands it
    // prints name the variable, never the token; without it an authenticating agent stops step 2.
    @Test
    void rawScriptSendsTokenAsABearerAndNeverPrintsIt(@TempDir Path dir) throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "raw:raw-token-0123456789\n");
        AgentServer secured = AgentServer.create(ServerConfig.loopback(0).withSecurity(new ServerSecurity(
                        new CallerAuthentication(List.of(new BearerTokens(new TokensFile(tokens)))), null, 4)),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"),
                new RevisorExecutor(Duration.ofMillis(20)));
        String url = "http://127.0.0.1:" + cleanup.start("the secured agent", secured, AgentServer::start,
                AgentServer::openStreams);

        ChildRun run = ChildCommand.of("bash", SCRIPT.toString()).in(SCRIPT.getParent())
                .env("AGENT", url).env("TOKEN", "raw-token-0123456789").run(RUN_LIMIT);
        assertShowsEveryStep(run);
        assertThat(run.output()).contains("-H \"Authorization: Bearer $TOKEN\"").doesNotContain("raw-token-0123456789");

        ChildRun without = ChildCommand.of("bash", SCRIPT.toString()).in(SCRIPT.getParent())
                .env("AGENT", url).without("TOKEN").run(RUN_LIMIT);
        assertThat(without.exitCode()).isNotZero();
        assertThat(without.output()).contains("HTTP 401", "step 2 failed");
    }

    // Rule: raw.sh fails loudly, naming the step, when the agent is not there.
    @Test
    void rawScriptExitsNonZeroWhereNothingListens() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }

        ChildRun run = ChildCommand.of("bash", SCRIPT.toString()).in(SCRIPT.getParent())
                .env("AGENT", "http://127.0.0.1:" + closedPort).run(RUN_LIMIT);

        assertThat(run.exitCode()).as(run.output()).isNotZero();
        assertThat(run.output()).contains("step 1 failed").doesNotContain("all 5 steps");
    }

    private static void assertShowsEveryStep(ChildRun run) {
        String out = run.output();
        assertThat(run.exitCode()).as("raw.sh output:\n%s", out).isZero();
        assertThat(out).contains("\"supportedInterfaces\"", "-32009", "TASK_STATE_COMPLETED", "all 5 steps");
        Matcher id = Pattern.compile("task id: ([0-9a-f-]{36})").matcher(out);
        assertThat(id.find()).as("step 3 names its task id:\n%s", out).isTrue();
        String step4 = section(out, "== 4.", "== 5.");
        assertThat(step4.lines().filter(l -> l.startsWith("-- frame ")).count()).as(step4).isGreaterThanOrEqualTo(4);
        assertThat(step4).contains("\"statusUpdate\"", "\"artifactUpdate\"");
        String step5 = section(out, "== 5.", "all 5 steps");
        assertThat(step5).contains("\"id\"", id.group(1), "TASK_STATE_COMPLETED").doesNotContain("\"error\"");
    }

    private static String section(String out, String from, String to) {
        int start = out.indexOf(from);
        int end = out.indexOf(to, start);
        assertThat(start).as("section %s in:\n%s", from, out).isNotNegative();
        return out.substring(start, end < 0 ? out.length() : end);
    }

    private static Path onPath(String program) {
        for (String dir : System.getenv("PATH").split(File.pathSeparator)) {
            Path p = Path.of(dir, program);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        throw new IllegalStateException(program + " is not on PATH");
    }
}
