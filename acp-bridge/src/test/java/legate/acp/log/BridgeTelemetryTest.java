package legate.acp.log;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import legate.acp.BridgeFixture;
import legate.acp.FakeAgents;
import legate.acp.connection.ProcessLauncher;
import legate.acp.permission.PermissionRules;
import legate.testsupport.Cleanup;
import legate.testsupport.OtlpReceiver;
import legate.testsupport.OtlpReceiver.ReceivedSpan;
import legate.wire.trace.Tracing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the bridge reports of its agents, over a real fake ACP agent: its process, each permission
 * decision, the tokens of each prompt answer and the cost of usage_update, and a span per ACP
 * prompt with its tool call's span inside, exported to an OTLP receiver on 127.0.0.1.
 */
class BridgeTelemetryTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private static double count(MeterRegistry registry, String name, String... tags) {
        return registry.get(name).tags(tags).counter().count();
    }

    @Test
    void processesPermissionsTokensCostAndSpansAreReported(@TempDir Path dir) throws Exception {
        OtlpReceiver receiver = cleanup.register(new OtlpReceiver());
        Tracing tracing = cleanup.register(Tracing.fromEnvironment("legate-bridge", Map.of(
                "OTEL_EXPORTER_OTLP_ENDPOINT", receiver.endpoint(), "OTEL_BSP_SCHEDULE_DELAY", "50")));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        BridgeFixture bridge = cleanup.register(new BridgeFixture(FakeAgents.backend(), dir.resolve("sandboxes"),
                ProcessLauncher.system(), PermissionRules.builtIn("default", false), BridgeLogs.disabled(),
                Clock.systemUTC(), new BridgeTelemetry(registry, tracing, "acp")));
        String c = UUID.randomUUID().toString();

        bridge.run(c, "permission edit notes.txt");
        bridge.run(c, "permission edit /etc/hosts");
        bridge.run(c, "tools");

        assertThat(registry.get("legate.bridge.adapter.processes").tags("backend", "acp").gauge().value()).isEqualTo(1.0);
        assertThat(count(registry, "legate.bridge.permission.decisions", "backend", "acp", "outcome", "allowed")).isEqualTo(1.0);
        assertThat(count(registry, "legate.bridge.permission.decisions", "backend", "acp", "outcome", "refused")).isEqualTo(1.0);
        // The fake agent answers every prompt with usage {inputTokens 10, outputTokens 5}.
        assertThat(count(registry, "legate.bridge.tokens", "backend", "acp", "kind", "input")).isEqualTo(30.0);
        assertThat(count(registry, "legate.bridge.tokens", "backend", "acp", "kind", "output")).isEqualTo(15.0);
        assertThat(count(registry, "legate.bridge.cost", "backend", "acp", "currency", "USD")).isEqualTo(0.01);

        tracing.flush(Duration.ofSeconds(10));
        ReceivedSpan tool = receiver.await(s -> s.name().equals("acp tool_call"), Duration.ofSeconds(10));
        ReceivedSpan prompt = receiver.await(s -> s.name().equals("acp session/prompt") && s.spanId().equals(tool.parentSpanId()),
                Duration.ofSeconds(10));
        assertThat(prompt.traceId()).isEqualTo(tool.traceId());
        assertThat(prompt.service()).isEqualTo("legate-bridge");
    }
}
