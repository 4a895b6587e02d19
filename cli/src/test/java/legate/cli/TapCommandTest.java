package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.RawHttp;
import legate.testsupport.RunningChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code legate tap} as a real process: {@code --web} prints the page's URL and serves it; {@code --replay} reads a log back. */
class TapCommandTest {
    private static final String[] TAP_KEYS = {"TAP_HOST", "TAP_PORT", "TARGET_URL", "TAP_LOG", "TAP_WEB", "TAP_WEB_PORT",
            "TAP_WEB_HOST", "TAP_ALLOWED_HOSTS"};
    private static final String UNVERSIONED = "{\"at\":\"2026-12-01T10:00:00Z\",\"exchange\":1,\"event\":\"request\","
            + "\"method\":\"POST\",\"target\":\"/\",\"headers\":{\"Content-Type\":\"application/json\"},"
            + "\"body\":\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":1,\\\"method\\\":\\\"GetTask\\\"}\"}\n";

    // The tap is stopped after each test, and nothing it started may outlive it.
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    // Rule: --web serves the inspector on its own port, loopback, and prints its URL; the page is live.
    @Test
    void webPrintsThePagesUrlAndServesIt(@TempDir Path dir) throws Exception {
        RunningChild tap = cleanup.register(ChildCommand.java(Legate.class, "tap", "--port", "0", "--web", "--web-port", "0",
                "--target", "http://127.0.0.1:9").in(dir).without(TAP_KEYS).start());
        Matcher m = tap.awaitLine(Pattern.compile("inspector on (http://127\\.0\\.0\\.1:\\d+/)"), Duration.ofSeconds(30));
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(m.group(1))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<title>legate tap</title>").contains("inspector.js");
        HttpResponse<String> status = http.send(HttpRequest.newBuilder(URI.create(m.group(1) + "status")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(status.body()).contains("\"mode\":\"live\"").contains("\"target\":\"http://127.0.0.1:9\"");
    }

    // DEFECT (issue 30): a tap bound to 0.0.0.0 answered every Host, so a DNS-rebinding page got through it
    // to the agent. It answers loopback names and TAP_ALLOWED_HOSTS (read from the environment here),
    // refuses another Host with 421 and forwards nothing (an allowed one reaches the dead target: 502).
    @Test
    void aTapBoundWideAnswersItsAllowedHostsAndRefusesOthers(@TempDir Path dir) throws Exception {
        RunningChild tap = cleanup.register(ChildCommand.java(Legate.class, "tap", "--host", "0.0.0.0", "--port", "0",
                "--color", "never", "--target", "http://127.0.0.1:9").in(dir).without(TAP_KEYS)
                .env("TAP_ALLOWED_HOSTS", "tap.example, other.example").start());
        Matcher m = tap.awaitLine(Pattern.compile("legate tap: http://127\\.0\\.0\\.1:(\\d+)/ ->"), Duration.ofSeconds(30));
        int port = Integer.parseInt(m.group(1));

        assertThat(RawHttp.get(port, "/", "rebind.attacker.example:" + port, null).status()).isEqualTo(421);
        assertThat(RawHttp.get(port, "/", "tap.example:" + port, null).status()).isEqualTo(502);
        assertThat(RawHttp.get(port, "/", "127.0.0.1:" + port, null).status()).isEqualTo(502);
    }

    // DEFECT (issue 30, second review): TAP_ALLOWED_HOSTS=* turned the Host check off without a word.
    @Test
    void anAllowedHostsStarIsSaidOutLoudAtStart(@TempDir Path dir) throws Exception {
        RunningChild tap = cleanup.register(ChildCommand.java(Legate.class, "tap", "--host", "0.0.0.0", "--port", "0",
                "--color", "never", "--target", "http://127.0.0.1:9").in(dir).without(TAP_KEYS)
                .env("TAP_ALLOWED_HOSTS", "*").start());
        Matcher m = tap.awaitLine(Pattern.compile("legate tap: http://127\\.0\\.0\\.1:(\\d+)/ ->"), Duration.ofSeconds(30));
        int port = Integer.parseInt(m.group(1));
        tap.awaitLine(Pattern.compile("TAP_ALLOWED_HOSTS is \\*: every Host is answered"), Duration.ofSeconds(30));
        assertThat(RawHttp.get(port, "/", "rebind.attacker.example:" + port, null).status()).isEqualTo(502);
    }

    // Rule: an allowed-hosts entry that is no host name is a usage error (exit 2) naming it, as ALLOWED_HOSTS is.
    @Test
    void aMalformedAllowedHostExits2NamingIt(@TempDir Path dir) throws Exception {
        ChildRun run = ChildCommand.java(Legate.class, "tap", "--port", "0", "--allowed-hosts", "ok.example,bad/host")
                .in(dir).without(TAP_KEYS).run(Duration.ofSeconds(60));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("TAP_ALLOWED_HOSTS").contains("bad/host").doesNotContain("Exception");
    }

    // Rule: a recorded session replays with no agent, checked again: the console flags what it finds.
    @Test
    void replayPrintsARecordedSessionWithItsProblems(@TempDir Path dir) throws Exception {
        Path log = Files.writeString(dir.resolve("session.jsonl"), UNVERSIONED);
        ChildRun run = ChildCommand.java(Legate.class, "tap", "--replay", log.toString(), "--color", "never").in(dir)
                .without(TAP_KEYS).run(Duration.ofSeconds(60));
        assertThat(run.exitCode()).as(run.output()).isZero();
        assertThat(run.stdout()).contains("[#1] -> POST / HTTP/1.1").contains("[#1] !! problem: the request has no A2A-Version");
    }

    // Rule: --replay FILE --web shows a recorded session with no agent: the page serves it, without a composer.
    @Test
    void replayWithWebServesTheSessionWithoutAnAgent(@TempDir Path dir) throws Exception {
        Path log = Files.writeString(dir.resolve("session.jsonl"), UNVERSIONED);
        RunningChild tap = cleanup.register(ChildCommand.java(Legate.class, "tap", "--replay", log.toString(), "--web",
                "--web-port", "0").in(dir).without(TAP_KEYS).start());
        Matcher m = tap.awaitLine(Pattern.compile("\\(1 exchanges\\); inspector on (http://127\\.0\\.0\\.1:\\d+/)"),
                Duration.ofSeconds(30));
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        assertThat(http.send(HttpRequest.newBuilder(URI.create(m.group(1) + "status")).build(),
                HttpResponse.BodyHandlers.ofString()).body()).contains("\"mode\":\"replay\"");
        String session = http.send(HttpRequest.newBuilder(URI.create(m.group(1) + "session.jsonl")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(session).contains("\"event\":\"request\"").contains("\"problem\":\"MISSING_A2A_VERSION\"");
    }

    /**
     * DEFECT (issue 30): left to the JVM, SIGTERM exited 143, where legate agent, bridge and mcp exit 0
     * after a stop by SIGTERM; both of the tap's long-running modes (live, and replay with --web) are stopped.
     */
    @Test
    void aSigtermStopsTheLiveTapAndTheReplayWithExitStatusZero(@TempDir Path dir) throws Exception {
        Path log = Files.writeString(dir.resolve("session.jsonl"), UNVERSIONED);
        RunningChild live = cleanup.register(ChildCommand.java(Legate.class, "tap", "--port", "0", "--web", "--web-port", "0",
                "--target", "http://127.0.0.1:9").in(dir).without(TAP_KEYS).start());
        RunningChild replay = cleanup.register(ChildCommand.java(Legate.class, "tap", "--replay", log.toString(), "--web",
                "--web-port", "0").in(dir).without(TAP_KEYS).start());
        live.awaitLine(Pattern.compile("clients must dial the tap"), Duration.ofSeconds(30));
        replay.awaitLine(Pattern.compile("inspector on http"), Duration.ofSeconds(30));
        for (RunningChild tap : new RunningChild[] {live, replay}) {
            Process p = tap.process();
            // On Unix, ProcessHandle.destroy is SIGTERM, as systemd and kill send it.
            assertThat(p.toHandle().supportsNormalTermination()).isTrue();
            assertThat(p.toHandle().destroy()).isTrue();
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).as("stopped within 20 s of SIGTERM").isTrue();
            assertThat(p.exitValue()).as(tap.output()).isZero();
        }
    }

    // Rule: a file that is not a session is a usage error (exit 2) naming the line, never a stack trace.
    @Test
    void replayOfABrokenFileExits2NamingTheLine(@TempDir Path dir) throws Exception {
        Path log = Files.writeString(dir.resolve("broken.jsonl"), UNVERSIONED + "not json\n");
        ChildRun run = ChildCommand.java(Legate.class, "tap", "--replay", log.toString()).in(dir)
                .without(TAP_KEYS).run(Duration.ofSeconds(60));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("cannot replay").contains("line 2").doesNotContain("Exception");
    }
}
