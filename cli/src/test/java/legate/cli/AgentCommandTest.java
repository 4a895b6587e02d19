package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.RawHttp;
import legate.testsupport.RunningChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code legate agent} as a real process: it reads .env from its working directory under the
 * environment, serves its card, and a SIGTERM stops it.
 */
class AgentCommandTest {
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");
    private static final Duration START_LIMIT = Duration.ofSeconds(30);

    // Each agent process started here is stopped after its test, and none may outlive it.
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private record Running(Process process, int port) {
    }

    private static ChildCommand legate(Path workDir, String... args) {
        List<String> argv = new ArrayList<>(List.of("agent"));
        argv.addAll(List.of(args));
        return ChildCommand.java(Legate.class, argv.toArray(String[]::new)).in(workDir)
                .without("HOST", "PORT", "PUBLIC_URL", "AGENT_NAME", "STEP_DELAY_MS", "TASK_STORE", "DATA_DIR",
                        "DATABASE_URL", "TASK_RETENTION", "MAX_TASKS", "SHUTDOWN_GRACE_MS", "A2A_TOKENS_FILE",
                        "A2A_JWKS_URL", "A2A_JWT_KEY", "A2A_JWT_ISSUER", "A2A_JWT_AUDIENCE", "A2A_INSECURE",
                        "A2A_EXTENDED_CARD", "MAX_TASKS_PER_PRINCIPAL", "AGENT_KIND", "TCK_STREAMING_TIMEOUT",
                        "GRPC_PORT", "GRPC_PUBLIC_ADDRESS", "A2A_BINDINGS", "ALLOWED_HOSTS", "CORS_ORIGINS");
    }

    private Running agent(Path workDir, Map<String, String> env, String... args) {
        return agent(legate(workDir, args).env(env)).running;
    }

    private record Started(Running running, RunningChild child) {
    }

    private Started agent(ChildCommand command) {
        RunningChild agent = cleanup.register(command.start());
        Matcher m = agent.awaitLine(LISTENING, START_LIMIT);
        return new Started(new Running(agent.process(), Integer.parseInt(m.group(1))), agent);
    }

    // DEFECT (issue 30, defect 3): `legate agent` ran a task for a request with the Host of a
    // DNS-rebinding page. ALLOWED_HOSTS adds names it answers (a proxy's); others get 421 naming it.
    @Test
    void allowedHostsAddsTheNamesTheAgentAnswersAndOthersAreMisdirected(@TempDir Path dir) throws Exception {
        Running agent = agent(dir, Map.of("PORT", "0", "STEP_DELAY_MS", "0", "TASK_STORE", "memory",
                "ALLOWED_HOSTS", "proxy.example.test, https://other.example.test:8443/"));

        RawHttp.Answer proxied = RawHttp.get(agent.port(), "/.well-known/agent-card.json", "proxy.example.test", null);
        RawHttp.Answer withPort = RawHttp.get(agent.port(), "/.well-known/agent-card.json", "other.example.test:8443", null);
        RawHttp.Answer rebound = RawHttp.get(agent.port(), "/v1/tasks", "rebind.attacker.example:" + agent.port(), null);

        assertThat(proxied.status()).isEqualTo(200);
        assertThat(withPort.status()).isEqualTo(200);
        assertThat(rebound.status()).isEqualTo(421);
        assertThat(rebound.body()).contains("ALLOWED_HOSTS");
    }

    @Test
    void anAllowedHostThatIsNoHostNameIsAUsageError(@TempDir Path dir) {
        ChildRun run = legate(dir).env(Map.of("PORT", "0", "TASK_STORE", "memory", "ALLOWED_HOSTS", "a.example, b c"))
                .run(START_LIMIT);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("ALLOWED_HOSTS: ").contains("b c");
    }

    private static final Pattern GRPC_LINE = Pattern.compile("^gRPC: 127\\.0\\.0\\.1:(\\d+) ");

    // PROTOCOL (A2A §10, §8.3.2): gRPC on a port of its own, printed at start and advertised in the card
    // as host:port; two agents started with only PORT=0 both start, and legate client speaks gRPC to one.
    @Test
    void grpcIsServedOnItsOwnPortAndASecondAgentWithPortZeroStartsBeside(@TempDir Path dir) throws Exception {
        Started first = agent(legate(dir).env(Map.of("PORT", "0", "STEP_DELAY_MS", "0", "DATA_DIR", dir.resolve("a").toString())));
        Started second = agent(legate(dir).env(Map.of("PORT", "0", "STEP_DELAY_MS", "0", "DATA_DIR", dir.resolve("b").toString())));
        int grpc1 = Integer.parseInt(first.child().awaitLine(GRPC_LINE, START_LIMIT).group(1));
        int grpc2 = Integer.parseInt(second.child().awaitLine(GRPC_LINE, START_LIMIT).group(1));
        assertThat(grpc1).isNotEqualTo(grpc2).isNotEqualTo(first.running().port());
        assertThat(card(first.running().port()))
                .contains("{\"url\":\"127.0.0.1:" + grpc1 + "\",\"protocolBinding\":\"GRPC\",\"protocolVersion\":\"1.0\"}");
        ChildRun ask = ChildCommand.java(Legate.class, "client", "--binding", "GRPC", "--json", "ask", "Hello there. Bye!")
                .in(dir).without("A2A_BINDING", "A2A_TOKEN", "A2A_API_KEY")
                .env("AGENT_URL", "http://127.0.0.1:" + second.running().port()).run(START_LIMIT);
        assertThat(ask.exitCode()).as(ask.output()).isZero();
        assertThat(ask.stdout()).contains("TASK_STATE_COMPLETED").contains("Words: 3, characters: 17, sentences: 2.");
    }

    private static String card(int port) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/.well-known/agent-card.json")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void theDotenvFileNamesTheAgentUnlessTheEnvironmentDoes(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".env"), "PORT=0\nAGENT_NAME=FromTheFile\nSTEP_DELAY_MS=0\n");
        Running fromFile = agent(dir, Map.of());
        assertThat(card(fromFile.port())).contains("\"name\":\"FromTheFile\"");
        // Its own DATA_DIR: a second process may not open the first one's SQLite file.
        Running fromEnv = agent(dir, Map.of("AGENT_NAME", "FromTheEnvironment", "DATA_DIR", dir.resolve("second").toString()));
        assertThat(card(fromEnv.port())).contains("\"name\":\"FromTheEnvironment\"");
    }

    @Test
    void publicUrlIsWhatTheCardAdvertises(@TempDir Path dir) throws Exception {
        Running r = agent(dir, Map.of("PORT", "0", "PUBLIC_URL", "http://localhost:41242/"));
        assertThat(card(r.port())).contains("\"url\":\"http://localhost:41242/\"").contains("\"name\":\"Revisor\"");
    }

    /**
     * DEFECT (issue 30): a drained SIGTERM exited 143, the JVM's default, which systemd records as a
     * failure after {@code legate service stop}. A clean drain is exit status 0, both for a bare
     * {@code legate agent} (read from the settings alone) and one picocli parsed.
     */
    @Test
    void aSigtermDrainedCleanlyExitsZero(@TempDir Path dir) throws Exception {
        for (Running r : List.of(agent(dir, Map.of("PORT", "0", "DATA_DIR", dir.resolve("bare").toString())),
                agent(dir, Map.of("DATA_DIR", dir.resolve("parsed").toString()), "--port", "0"))) {
            sigterm(r.process());
            assertThat(r.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(r.process().exitValue()).isZero();
        }
    }

    /**
     * SIGTERM, as systemd sends it: on Unix, ProcessHandle.destroy is that signal (normal
     * termination). Not Process.destroy, which also closes the pipes, losing what the process says
     * as it stops; not a kill binary, which a fresh machine may lack (Debian's procps).
     */
    private static void sigterm(Process p) {
        assertThat(p.toHandle().supportsNormalTermination()).as("destroy sends SIGTERM here").isTrue();
        assertThat(p.toHandle().destroy()).isTrue();
    }

    // A drain that ends with a turn still running is not a clean stop: a supervisor should see a failure, and why.
    @Test
    void aSigtermWhoseGraceEndsBeforeTheTurnIsExitStatusOneAndSaysSo(@TempDir Path dir) throws Exception {
        Started s = agent(legate(dir, "--port", "0").env(Map.of("STEP_DELAY_MS", "5000", "SHUTDOWN_GRACE_MS", "100")));
        int port = s.running().port();
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
                + "{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"One. Two.\"}]},"
                + "\"configuration\":{\"returnImmediately\":true}}}";
        String answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(answer).contains("\"task\":{");
        sigterm(s.running().process());
        ChildRun run = s.child().awaitExit(Duration.ofSeconds(20));
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.stderr()).contains("legate agent: turns still running after SHUTDOWN_GRACE_MS (100 ms) were cut off");
    }

    @Test
    void aSigtermLetsTheRunningTurnFinishItsStreamBeforeTheProcessExits(@TempDir Path dir) throws Exception {
        // Revisor's turn pauses 800 ms after each step: the SIGTERM lands in the middle of it.
        Running r = agent(dir, Map.of("STEP_DELAY_MS", "800", "SHUTDOWN_GRACE_MS", "20000"), "--port", "0");
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendStreamingMessage\",\"params\":{\"message\":"
                + "{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"One. Two.\"}]}}}";
        HttpResponse<Stream<String>> stream = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + r.port() + "/")).header("Content-Type", "application/json")
                .header("A2A-Version", "1.0").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofLines());
        List<String> frames = new ArrayList<>();
        Iterator<String> lines = stream.body().iterator();
        while (lines.hasNext()) {
            String line = lines.next();
            if (line.startsWith("data:")) {
                frames.add(line);
                if (frames.size() == 2) {
                    r.process().destroy();
                }
            }
        }
        assertThat(frames.get(frames.size() - 1)).as("the stream ends with the turn's last event").contains(
                "TASK_STATE_COMPLETED");
        assertThat(r.process().waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(r.process().exitValue()).as("the turn ended within the grace: a clean stop").isZero();
    }

    @Test
    void aBadPublicUrlIsAClearErrorAndExitCodeTwo(@TempDir Path dir) {
        ChildRun run = legate(dir, "--port", "0", "--public-url", "localhost:41242").run(START_LIMIT);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("PUBLIC_URL must be an absolute http(s) URL").doesNotContain("Exception");
    }

    // README "Security": a wildcard bind without PUBLIC_URL would advertise 127.0.0.1 to remote callers.
    // Neither refusal binds anything: they are decided before the port is opened.
    @Test
    void aWildcardBindWithoutPublicUrlRefusesToStart(@TempDir Path dir) {
        ChildRun run = legate(dir).env("HOST", "0.0.0.0").env("PORT", "0").run(START_LIMIT);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("HOST=0.0.0.0 listens on every address", "Set PUBLIC_URL")
                .doesNotContain("Exception", "listening on");
    }

    // README "Security": without a scheme, only loopback, unless --insecure says it is meant.
    @Test
    void aNonLoopbackBindWithoutAuthenticationRefusesToStartAndSaysHowToProceed(@TempDir Path dir) {
        for (ChildRun run : List.of(
                legate(dir).env("HOST", "0.0.0.0").env("PORT", "0").env("PUBLIC_URL", "http://agent.example:41241/")
                        .run(START_LIMIT),
                legate(dir, "--host", "0.0.0.0", "--port", "0", "--public-url", "http://agent.example:41241/")
                        .run(START_LIMIT))) {
            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(run.output()).contains("is not a loopback address and no authentication is configured",
                    "A2A_TOKENS_FILE", "--insecure (A2A_INSECURE=true)").doesNotContain("Exception");
        }
    }

    @Test
    void aTokensFileThatCannotBeReadIsAUsageErrorNamingTheFileNotItsContent(@TempDir Path dir) throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "alice-without-a-colon-s3cret\n");
        ChildRun run = legate(dir, "--port", "0").env("A2A_TOKENS_FILE", tokens.toString()).run(START_LIMIT);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("line 1 of", "principal:token").doesNotContain("s3cret");
    }

    // A bare `legate agent` skips picocli (Legate.main): an option that fromSettings forgot, or a
    // default that differs from the annotation's, would change the server that users start.
    @Test
    void aBareAgentReadsEverySettingAsPicocliWould() throws Exception {
        Map<String, String> every = new HashMap<>();
        for (Class<?> options : List.of(AgentCommand.class, ServerOptions.class, SecurityOptions.class, EdgeOptions.class)) {
            for (Field f : options.getDeclaredFields()) {
                CommandLine.Option o = f.getAnnotation(CommandLine.Option.class);
                if (o != null && !o.descriptionKey().isEmpty()) {
                    every.put(o.descriptionKey(), f.getType() == String.class ? "value-of-" + o.descriptionKey()
                            : f.getType() == Duration.class ? "42h" : f.getType() == boolean.class ? "true" : "4242");
                }
            }
        }
        assertThat(every).hasSize(40);
        for (Map<String, String> env : List.of(Map.<String, String>of(), every)) {
            AgentCommand direct = AgentCommand.fromSettings(new Settings(env, Map.of()));
            picocli.CommandLine.ParseResult r = Legate.commandLine(new Settings(env, Map.of())).parseArgs("agent");
            AgentCommand viaPicocli = (AgentCommand) r.subcommand().commandSpec().userObject();
            assertSameOptions(direct, viaPicocli, env);
            assertSameOptions(direct.server, viaPicocli.server, env);
            assertSameOptions(direct.server.security, viaPicocli.server.security, env);
            assertSameOptions(direct.edge, viaPicocli.edge, env);
        }
    }

    private static void assertSameOptions(Object direct, Object viaPicocli, Map<String, String> env) throws Exception {
        for (Field f : direct.getClass().getDeclaredFields()) {
            if (f.isAnnotationPresent(CommandLine.Option.class)) {
                assertThat(f.get(direct)).as(f.getName() + " with " + env).isEqualTo(f.get(viaPicocli));
            }
        }
    }

    // Anything but plain digits goes to picocli, so the error a user sees for PORT=abc is picocli's.
    @Test
    void aNumberThatIsNotPlainDigitsIsLeftToPicocli() {
        for (String port : List.of("abc", " 41241", "0x10", "99999999999", "-")) {
            assertThat(AgentCommand.fromSettings(new Settings(Map.of("PORT", port), Map.of()))).as(port).isNull();
        }
        assertThat(AgentCommand.fromSettings(new Settings(Map.of("PORT", "0"), Map.of())).server.port).isZero();
    }

    // The TCK's system under test behind the same server: its card, and a scripted message answered as the TCK asks.
    @Test
    void agentTckServesTheTckAgent(@TempDir Path dir) throws Exception {
        Running r = agent(dir, Map.of("PORT", "0", "TASK_STORE", "memory"), "--agent", "tck");
        assertThat(card(r.port())).contains("\"name\":\"Legate TCK agent\"").contains("\"id\":\"tck\"");
        String answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + r.port() + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\","
                        + "\"params\":{\"message\":{\"messageId\":\"tck-message-response-1\",\"role\":\"ROLE_USER\","
                        + "\"parts\":[{\"text\":\"hi\"}]}}}"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(answer).contains("\"message\":{").contains("Direct message response");
    }

    @Test
    void anUnknownAgentIsAUsageErrorNamingIt(@TempDir Path dir) {
        ChildRun run = legate(dir).env("AGENT_KIND", "nobody").run(START_LIMIT);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("revisor or tck, not \"nobody\"").doesNotContain("\tat ");
        ChildRun badTimeout = legate(dir, "--agent", "tck").env("TCK_STREAMING_TIMEOUT", "soon").run(START_LIMIT);
        assertThat(badTimeout.exitCode()).isEqualTo(2);
        assertThat(badTimeout.output()).contains("TCK_STREAMING_TIMEOUT").contains("soon").doesNotContain("\tat ");
    }

    // A2A_BINDINGS naming no binding is a usage error that says which word and what the names are.
    @Test
    void anUnknownBindingIsAUsageErrorNamingTheWord(@TempDir Path dir) {
        ChildRun run = legate(dir).env("A2A_BINDINGS", "JSONRPC,SOAP").run(START_LIMIT);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("\"SOAP\" is not a binding").contains("HTTP+JSON").doesNotContain("\tat ");
    }

    @Test
    void aBadPortFromTheEnvironmentIsPicocliErrorAndExitCodeTwo(@TempDir Path dir) {
        ChildRun run = legate(dir).env("PORT", "abc").run(START_LIMIT);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("Invalid value for option '--port'").contains("abc");
    }

    // A store that is configured but cannot be opened (here: nothing listens on the port) stops
    // the agent with exit 1 and a line saying why, never a stack trace, never the password.
    @Test
    void aPostgresStoreThatCannotBeReachedStopsTheStartWithoutThePassword(@TempDir Path dir) {
        ChildRun run = legate(dir).env("TASK_STORE", "postgres").env("DATABASE_URL", "postgres://u:s3cret@127.0.0.1:1/legate")
                .run(START_LIMIT);
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.output()).contains("postgres task store").contains("cannot be opened")
                .doesNotContain("\tat ").doesNotContain("s3cret");
    }

    // A postgres store without DATABASE_URL is a usage error naming the key, from the fast start too.
    @Test
    void aPostgresStoreWithoutADatabaseUrlIsAUsageError(@TempDir Path dir) {
        ChildRun run = legate(dir).env("TASK_STORE", "postgres").run(START_LIMIT);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("DATABASE_URL").doesNotContain("Exception");
    }
}
