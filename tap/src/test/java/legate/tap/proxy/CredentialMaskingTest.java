package legate.tap.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeLog;
import legate.tap.show.ShownHeaders;
import legate.tap.show.WirePrinter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tap forwards credentials untouched and never shows one in full (README "The tap and
 * credentials"): in the console and in its JSON Lines log, Authorization and Proxy-Authorization
 * keep their scheme and the last four characters, the API key header (configured here as
 * X-Team-Key) its last four, and cookies their names. (The JDK client will not send
 * Proxy-Authorization to a server that is not its proxy; {@code ShownHeadersTest} covers it.)
 */
class CredentialMaskingTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String TOKEN = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlWXYZ";
    private static final String API_KEY = "lk_live_5f2c9a7e41b0d8K3Y9";
    private static final String SESSION = "s%3A0123456789abcdefSESS";
    private static final String SET_COOKIE_VALUE = "srv0123456789abcdefghZZ99";

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final EventRecorder events = new EventRecorder();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private ScriptedUpstream agent;
    private TapProxy tap;
    private ExchangeLog log;

    @AfterEach
    void close() throws Exception {
        if (tap != null) {
            tap.stop();
        }
        if (agent != null) {
            agent.close();
        }
        if (log != null) {
            log.close();
        }
        http.shutdownNow();
    }

    @Test
    void credentialsReachTheAgentExactlyAndAreShownMasked(@TempDir Path dir) throws Exception {
        agent = new ScriptedUpstream((head, out) -> out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + "Set-Cookie: srv=" + SET_COOKIE_VALUE + "; HttpOnly; Secure\r\nContent-Length: 2\r\n\r\n{}")
                .getBytes(StandardCharsets.ISO_8859_1)));
        Path logFile = dir.resolve("tap.jsonl");
        log = ExchangeLog.open(logFile);
        tap = new TapProxy(TapConfig.loopback(0, URI.create("http://127.0.0.1:" + agent.port())).withApiKeyHeader("X-Team-Key"),
                List.of(new WirePrinter(new PrintStream(console, true, StandardCharsets.UTF_8), false,
                        ShownHeaders.A2A.withApiKeyHeader("X-Team-Key")), log, events),
                Clock.systemUTC());
        tap.start();

        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(tap.url().resolve("/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .header("Authorization", "Bearer " + TOKEN).header("X-Team-Key", API_KEY)
                .header("Cookie", "session=" + SESSION + "; theme=dark")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ListTasks\",\"params\":{}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        events.await(Response.class, WAIT);
        log.close();
        String shown = console.toString(StandardCharsets.UTF_8);
        String logged = Files.readString(logFile);
        String received = agent.requests().getFirst();

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Set-Cookie")).hasValue("srv=" + SET_COOKIE_VALUE + "; HttpOnly; Secure");
        assertThat(received).contains("Authorization: Bearer " + TOKEN + "\r\n", "X-Team-Key: " + API_KEY + "\r\n",
                "Cookie: session=" + SESSION + "; theme=dark\r\n");
        for (String everything : List.of(shown, logged)) {
            assertThat(everything).contains("Bearer …WXYZ", "…K3Y9", "session=…SESS", "theme=…",
                    "srv=…ZZ99");
            assertThat(everything).doesNotContain(TOKEN, API_KEY, SESSION, SET_COOKIE_VALUE, "dark");
        }
    }
}
