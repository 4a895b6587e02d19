package legate.tap.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.tap.show.ExchangeEvent.Flagged;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.Problem;
import legate.tap.show.ProtocolCheck;
import legate.tap.show.WirePrinter;
import legate.testsupport.Cleanup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The tap between a client and Legate's HTTP+JSON binding (A2A §11): a REST exchange is shown as a
 * JSON-RPC one is, its method and path, its body laid out, a stream's frames one by one as they
 * pass; no problem is flagged on what the binding rightly sends (bare results, no JSON-RPC id), and
 * a REST request without A2A-Version is flagged as a JSON-RPC one is.
 */
class TapRestTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final Pattern TASK_ID = Pattern.compile("\"task\":\\{\"id\":\"([^\"]+)\"");
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final EventRecorder events = new EventRecorder();

    @Test
    void aRestStreamAndAGetAreShownWithMethodPathBodyAndEveryFrame() throws Exception {
        AgentServer agent = AgentServer.create(ServerConfig.loopback(0), p -> RevisorCard.build(null,
                "http://127.0.0.1:" + p + "/"), new RevisorExecutor(Duration.ZERO));
        int agentPort = cleanup.start("the agent", agent, AgentServer::start, AgentServer::openStreams);
        TapProxy tap = new TapProxy(TapConfig.loopback(0, URI.create("http://127.0.0.1:" + agentPort)),
                List.of(new ProtocolCheck(List.of(new WirePrinter(new PrintStream(console, true, StandardCharsets.UTF_8), false),
                        events))), Clock.systemUTC());
        tap.start();
        cleanup.register(tap);
        HttpClient http = cleanup.register(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build());

        String stream = http.send(HttpRequest.newBuilder(tap.url().resolve("/message:stream"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"message\":{\"messageId\":\"m1\",\"role\":\"ROLE_USER\","
                        + "\"parts\":[{\"text\":\"Count these words. Then stop.\"}]}}")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        Matcher m = TASK_ID.matcher(stream);
        assertThat(m.find()).as(stream).isTrue();
        assertThat(events.await(Request.class, WAIT).target()).isEqualTo("/message:stream");
        assertThat(events.await(Frame.class, WAIT).event().id()).isEqualTo("1");
        events.await(StreamClosed.class, WAIT);

        String got = http.send(HttpRequest.newBuilder(tap.url().resolve("/tasks/" + m.group(1)))
                .header("A2A-Version", "1.0").GET().build(), HttpResponse.BodyHandlers.ofString()).body();
        assertThat(got).contains("TASK_STATE_COMPLETED");
        Request get = events.await(Request.class, WAIT);
        assertThat(get.method()).isEqualTo("GET");
        assertThat(events.await(Response.class, WAIT).status()).isEqualTo(200);

        // PROTOCOL (A2A §3.6): REST requests carry A2A-Version as JSON-RPC ones do; one without it is flagged.
        http.send(HttpRequest.newBuilder(tap.url().resolve("/tasks?pageSize=1")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(events.await(Flagged.class, WAIT).problem()).isEqualTo(Problem.MISSING_A2A_VERSION);

        String shown = console.toString(StandardCharsets.UTF_8);
        assertThat(shown).contains("POST /message:stream", "GET /tasks/" + m.group(1))
                // The body laid out, and each frame: the task first, the artifact, the end.
                .contains("\"text\": \"Count these words. Then stop.\"")
                .contains("TASK_STATE_SUBMITTED", "text-stats", "TASK_STATE_COMPLETED")
                .containsOnlyOnce("!! problem");
    }
}
