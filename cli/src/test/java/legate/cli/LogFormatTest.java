package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.RunningChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code LOG_FORMAT=json}: a real {@code legate agent} writes each log record as one JSON object on
 * its own line, which a collector can parse without knowing Jetty's text format.
 */
class LogFormatTest {
    private static final Pattern LISTENING = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private static ChildCommand agent(Path dir, Map<String, String> env) {
        return ChildCommand.java(Legate.class, "agent").in(dir)
                .without("HOST", "PORT", "PUBLIC_URL", "TASK_STORE", "LOG_FORMAT", "METRICS_PORT", "METRICS_TOKEN",
                        "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_TRACES_EXPORTER")
                .env(env);
    }

    @Test
    void withLogFormatJsonEveryLogRecordIsOneJsonObjectPerLine(@TempDir Path dir) throws Exception {
        RunningChild child = cleanup.register(agent(dir, Map.of("PORT", "0", "TASK_STORE", "memory",
                "LOG_FORMAT", "json")).start());
        int port = Integer.parseInt(child.awaitLine(LISTENING, Duration.ofSeconds(30)).group(1));
        // A refused request is logged (INFO, by the HTTP edge every binding shares: legate.a2a.server.http.Exchange).
        HttpResponse<String> refused = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/")).header("Content-Type", "text/plain")
                .header("A2A-Version", "1.0").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(refused.body()).contains("-32005");
        Matcher line = child.awaitLine(Pattern.compile("^\\{.*refused a request.*\\}$"), Duration.ofSeconds(10));

        ObjectMapper json = new ObjectMapper();
        JsonNode record = json.readTree(line.group());
        assertThat(record.path("level").asText()).isEqualTo("INFO");
        assertThat(record.path("logger").asText()).isEqualTo("legate.a2a.server.http.Exchange");
        assertThat(record.path("message").asText()).contains("-32005");
        assertThat(record.path("time").asText()).isNotEmpty();
        List<String> lines = child.output().lines().toList();
        for (String l : lines) {
            if (l.startsWith("{")) {
                assertThat(json.readTree(l).isObject()).as(l).isTrue();
            }
        }
        // Nothing in Jetty's text format ("...:INFO :logger:thread: message") got through.
        assertThat(lines).noneMatch(l -> l.matches(".*:(INFO|WARN|ERROR) *:.*"));
    }

    @Test
    void anUnknownLogFormatIsRefusedAtStart(@TempDir Path dir) {
        ChildRun run = agent(dir, Map.of("PORT", "0", "TASK_STORE", "memory", "LOG_FORMAT", "xml"))
                .run(Duration.ofSeconds(30));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("LOG_FORMAT must be text or json, got xml");
    }
}
