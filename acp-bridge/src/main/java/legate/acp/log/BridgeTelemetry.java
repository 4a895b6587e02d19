package legate.acp.log;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import java.util.function.IntSupplier;
import legate.wire.trace.Tracing;

/**
 * What the bridge reports beside its A2A server's metrics: its agent processes, its permission
 * decisions, the tokens and cost its agents report, and (when tracing) a span per ACP prompt and
 * per tool call. Every meter is labelled with the backend (claude, codex, or the command's name).
 *
 * <p>PEER (claude-agent-acp): tokens come from the prompt answer's {@code usage} and cost from
 * {@code usage_update}; codex-acp reports neither, so its series stay at zero.
 */
public final class BridgeTelemetry {
    /** Counts into a registry nobody scrapes, traces nothing: for bridges built without telemetry (tests). */
    public static BridgeTelemetry none(String backend) {
        return new BridgeTelemetry(new SimpleMeterRegistry(), Tracing.OFF, backend);
    }

    /** The usage fields of a prompt answer, and the kind label each is counted under. */
    private static final String[][] TOKEN_KINDS = {{"inputTokens", "input"}, {"outputTokens", "output"},
        {"cachedReadTokens", "cached_read"}, {"cachedWriteTokens", "cached_write"}};

    private final MeterRegistry registry;
    private final Tracing tracing;
    private final String backend;
    private final Counter allowed;
    private final Counter refused;

    public BridgeTelemetry(MeterRegistry registry, Tracing tracing, String backend) {
        this.registry = registry;
        this.tracing = tracing;
        this.backend = backend;
        this.allowed = decisions("allowed");
        this.refused = decisions("refused");
    }

    /** The agent processes running now, read at each scrape. */
    public void watchProcesses(IntSupplier running) {
        Gauge.builder("legate.bridge.adapter.processes", running, IntSupplier::getAsInt)
                .description("ACP agent processes running now, one per conversation")
                .tag("backend", backend).strongReference(true).register(registry);
    }

    /** A permission request decided by the policy. */
    public void permission(boolean wasAllowed) {
        (wasAllowed ? allowed : refused).increment();
    }

    /** The {@code usage} of a prompt answer (null when the agent reports none). */
    public void tokens(JsonNode usage) {
        if (usage == null) {
            return;
        }
        for (String[] kind : TOKEN_KINDS) {
            JsonNode n = usage.get(kind[0]);
            if (n != null && n.canConvertToLong() && n.asLong() > 0) {
                Counter.builder("legate.bridge.tokens").description("Tokens the agents reported, by kind")
                        .tags("backend", backend, "kind", kind[1]).register(registry).increment(n.asLong());
            }
        }
    }

    /** Cost a conversation added since its previous report, in {@code currency}. */
    public void cost(double added, String currency) {
        if (added > 0) {
            Counter.builder("legate.bridge.cost").description("Cost the agents reported (usage_update), by currency")
                    .tags("backend", backend, "currency", currency).register(registry).increment(added);
        }
    }

    /** Starts the span of one ACP {@code session/prompt}, a child of the current span (the task's turn). */
    public Span promptSpan(String sessionId) {
        if (!tracing.on()) {
            return Span.getInvalid();
        }
        return tracing.tracer().spanBuilder("acp session/prompt").setAttribute("acp.session_id", sessionId)
                .setAttribute("acp.backend", backend).startSpan();
    }

    /** Starts the span of one tool call inside {@code prompt}; the agent's updates arrive on another thread. */
    public Span toolSpan(Span prompt, String toolCallId, String title) {
        if (!tracing.on()) {
            return Span.getInvalid();
        }
        return tracing.tracer().spanBuilder("acp tool_call").setParent(Context.root().with(prompt))
                .setAttribute("acp.tool_call_id", toolCallId).setAttribute("acp.title", title == null ? "" : title)
                .startSpan();
    }

    private Counter decisions(String outcome) {
        return Counter.builder("legate.bridge.permission.decisions")
                .description("Permission requests the policy decided, by outcome")
                .tags("backend", backend, "outcome", outcome).register(registry);
    }
}
