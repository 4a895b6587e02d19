package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code legate agent} as a real process: it reads .env from its working directory under the
 * environment, serves its card, and a SIGTERM stops it.
 */
class AgentCommandTest {
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void reap() throws InterruptedException {
        for (Process p : started) {
            p.destroyForcibly();
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("agent process stopped").isTrue();
        }
    }

    private record Running(Process process, int port) {
    }

    private Running agent(Path workDir, java.util.Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), Legate.class.getName(), "agent"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectErrorStream(true);
        for (String key : List.of("HOST", "PORT", "PUBLIC_URL", "AGENT_NAME", "STEP_DELAY_MS")) {
            pb.environment().remove(key);
        }
        pb.environment().putAll(env);
        Process p = pb.start();
        started.add(p);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        Pattern listening = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");
        String line;
        StringBuilder seen = new StringBuilder();
        while ((line = out.readLine()) != null) {
            seen.append(line).append('\n');
            Matcher m = listening.matcher(line);
            if (m.find()) {
                Thread.ofVirtual().start(() -> out.lines().forEach(l -> { }));
                return new Running(p, Integer.parseInt(m.group(1)));
            }
        }
        throw new AssertionError("the agent did not report its port; output:\n" + seen);
    }

    private static String card(int port) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/.well-known/agent-card.json")).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void theDotenvFileNamesTheAgentUnlessTheEnvironmentDoes(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".env"), "PORT=0\nAGENT_NAME=FromTheFile\nSTEP_DELAY_MS=0\n");
        Running fromFile = agent(dir, java.util.Map.of());
        assertThat(card(fromFile.port())).contains("\"name\":\"FromTheFile\"");
        Running fromEnv = agent(dir, java.util.Map.of("AGENT_NAME", "FromTheEnvironment"));
        assertThat(card(fromEnv.port())).contains("\"name\":\"FromTheEnvironment\"");
    }

    @Test
    void publicUrlIsWhatTheCardAdvertises(@TempDir Path dir) throws Exception {
        Running r = agent(dir, java.util.Map.of("PORT", "0", "PUBLIC_URL", "http://localhost:41242/"));
        assertThat(card(r.port())).contains("\"url\":\"http://localhost:41242/\"").contains("\"name\":\"Revisor\"");
    }

    @Test
    void sigtermStopsTheServer(@TempDir Path dir) throws Exception {
        Running r = agent(dir, java.util.Map.of("PORT", "0"));
        r.process().destroy();
        assertThat(r.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(r.process().exitValue()).isIn(0, 143);
    }

    @Test
    void aBadPublicUrlIsAClearErrorAndExitCodeTwo(@TempDir Path dir) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), Legate.class.getName(), "agent", "--port", "0",
                "--public-url", "localhost:41242").directory(dir.toFile()).redirectErrorStream(true);
        Process p = pb.start();
        started.add(p);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(out).contains("PUBLIC_URL must be an absolute http(s) URL").doesNotContain("Exception");
    }

    // A bare `legate agent` skips picocli (Legate.main): an option that fromSettings forgot, or a
    // default that differs from the annotation's, would change the server that users start.
    @Test
    void aBareAgentReadsEverySettingAsPicocliWould() throws Exception {
        Map<String, String> every = new HashMap<>();
        for (Class<?> options : List.of(AgentCommand.class, ServerOptions.class)) {
            for (Field f : options.getDeclaredFields()) {
                CommandLine.Option o = f.getAnnotation(CommandLine.Option.class);
                if (o != null && !o.descriptionKey().isEmpty()) {
                    every.put(o.descriptionKey(), f.getType() == String.class ? "value-of-" + o.descriptionKey() : "4242");
                }
            }
        }
        assertThat(every).hasSize(6);
        for (Map<String, String> env : List.of(Map.<String, String>of(), every)) {
            AgentCommand direct = AgentCommand.fromSettings(new Settings(env, Map.of()));
            picocli.CommandLine.ParseResult r = Legate.commandLine(new Settings(env, Map.of())).parseArgs("agent");
            AgentCommand viaPicocli = (AgentCommand) r.subcommand().commandSpec().userObject();
            assertSameOptions(direct, viaPicocli, env);
            assertSameOptions(direct.server, viaPicocli.server, env);
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

    @Test
    void aBadPortFromTheEnvironmentIsPicocliErrorAndExitCodeTwo(@TempDir Path dir) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), Legate.class.getName(), "agent")
                .directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().put("PORT", "abc");
        Process p = pb.start();
        started.add(p);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(out).contains("Invalid value for option '--port'").contains("abc");
    }
}
