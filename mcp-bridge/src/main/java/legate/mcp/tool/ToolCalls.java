package legate.mcp.tool;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import legate.acp.log.BridgeLogs;
import legate.wire.trace.Tracing;

/**
 * What {@code legate mcp} records of each tool call: {@code legate_mcp_tool_calls_seconds{tool,
 * outcome}} (ok, or error for an {@code isError} result), and when tracing is on a span per call,
 * current while the call runs so the A2A client writes it as the upstream request's
 * {@code traceparent}: the agent's spans join the same trace.
 */
public final class ToolCalls {
    /** The activity log's file under LOG_DIR. */
    public static final String LOG = "mcp.jsonl";

    private final MeterRegistry registry;
    private final Tracing tracing;
    private final BridgeLogs activity;

    /**
     * @param activity where {@link #activity} records go: {@value #LOG}, in the format of the
     *     bridge's work.jsonl ({@code ts}, {@code event}, then the fields)
     */
    public ToolCalls(MeterRegistry registry, Tracing tracing, BridgeLogs activity) {
        this.registry = registry;
        this.tracing = tracing;
        this.activity = activity;
    }

    /** One record of the activity log: listen, ask, ask.abandoned, upstream.broken. */
    public void activity(String event, Map<String, ?> fields) {
        activity.work(event, fields);
    }

    CallToolResult observe(String tool, Supplier<CallToolResult> call) {
        long start = System.nanoTime();
        Span span = tracing.on() ? tracing.tracer().spanBuilder("mcp tools/call " + tool).setSpanKind(SpanKind.SERVER)
                .setAttribute("mcp.tool", tool).startSpan() : Span.getInvalid();
        CallToolResult result = null;
        try (Scope scope = span.makeCurrent()) {
            result = call.get();
            return result;
        } finally {
            boolean failed = result == null || Boolean.TRUE.equals(result.isError());
            if (failed) {
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
            Timer.builder("legate.mcp.tool.calls").description("MCP tool calls, by tool and outcome (ok or error)")
                    .tags("tool", tool, "outcome", failed ? "error" : "ok")
                    .serviceLevelObjectives(Duration.ofMillis(10), Duration.ofMillis(100), Duration.ofSeconds(1),
                            Duration.ofSeconds(10), Duration.ofSeconds(60), Duration.ofSeconds(600))
                    .register(registry).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        }
    }
}
