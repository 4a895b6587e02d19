package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Pattern;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.RunningChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The telemetry keys of a real {@code legate agent}: read from {@code .env} like every key (a
 * service installed by {@code legate service} has no other), a setting it cannot honour refused at
 * start with what to change, and the start-up line that says where /metrics is.
 */
class TelemetrySettingsTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private static ChildCommand agent(Path dir) {
        return ChildCommand.java(Legate.class, "agent").in(dir)
                .without("HOST", "PORT", "TASK_STORE", "METRICS_PORT", "METRICS_TOKEN", "LOG_FORMAT", "OTEL_SDK_DISABLED",
                        "OTEL_TRACES_EXPORTER", "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                        "OTEL_EXPORTER_OTLP_PROTOCOL");
    }

    @Test
    void anOtlpProtocolLegateCannotSpeakInDotenvStopsTheStartSayingWhatToSet(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".env"), "PORT=0\nTASK_STORE=memory\n"
                + "OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4317\nOTEL_EXPORTER_OTLP_PROTOCOL=grpc\n");
        ChildRun run = agent(dir).run(Duration.ofSeconds(30));
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.output()).contains("OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported")
                .contains("http/protobuf").doesNotContain("Exception");
    }

    @Test
    void theStartUpLineNamesTheMetricsListenerAndItAsksForTheToken(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".env"), "PORT=0\nTASK_STORE=memory\nMETRICS_PORT=0\nMETRICS_TOKEN=t0ken\n");
        RunningChild child = cleanup.register(agent(dir).start());
        String url = child.awaitLine(Pattern.compile("Metrics: (http://127\\.0\\.0\\.1:\\d+/metrics) \\(bearer METRICS_TOKEN\\)"),
                Duration.ofSeconds(30)).group(1);
        HttpClient http = HttpClient.newHttpClient();
        assertThat(http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode()).isEqualTo(401);
        assertThat(http.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer t0ken").build(),
                HttpResponse.BodyHandlers.ofString()).body()).contains("legate_a2a_open_streams");
        assertThat(child.output()).doesNotContain("t0ken");
    }
}
