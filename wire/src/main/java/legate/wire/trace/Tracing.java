package legate.wire.trace;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporterBuilder;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Whether Legate traces, and the tracer it traces with. Off unless the standard OpenTelemetry
 * variables ask for it; when off, {@link #on()} is the one check a hot path makes, and nothing
 * else is allocated. When on, spans leave in batches by OTLP over HTTP (http/protobuf).
 *
 * <p>W3C Trace Context ({@code traceparent}, {@code tracestate}) is how a trace crosses agents: a
 * server takes it from the request, a client writes the current span's into its requests.
 */
public final class Tracing implements AutoCloseable {
    /** The variables {@link #fromEnvironment} reads, for a caller that gathers them from more than the environment. */
    public static final List<String> KEYS = List.of("OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER",
            "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL",
            "OTEL_EXPORTER_OTLP_HEADERS", "OTEL_SERVICE_NAME", "OTEL_BSP_SCHEDULE_DELAY");

    /** No tracing: {@link #on()} is false and the tracer makes no-op spans. */
    public static final Tracing OFF = new Tracing(null, TracerProvider.noop().get("legate"));

    private final SdkTracerProvider provider;
    private final Tracer tracer;

    private Tracing(SdkTracerProvider provider, Tracer tracer) {
        this.provider = provider;
        this.tracer = tracer;
    }

    /**
     * Tracing as the environment asks: on when {@code OTEL_EXPORTER_OTLP_ENDPOINT} or
     * {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT} is set, or {@code OTEL_TRACES_EXPORTER=otlp};
     * off when {@code OTEL_SDK_DISABLED=true} or {@code OTEL_TRACES_EXPORTER=none}. Reads
     * {@code OTEL_SERVICE_NAME} (else {@code serviceName}), {@code OTEL_EXPORTER_OTLP_HEADERS},
     * {@code OTEL_EXPORTER_OTLP_PROTOCOL} (http/protobuf only) and {@code OTEL_BSP_SCHEDULE_DELAY}.
     *
     * @throws IllegalArgumentException for a setting Legate cannot honour, with what to change
     */
    public static Tracing fromEnvironment(String serviceName, Map<String, String> env) {
        String exporter = env.getOrDefault("OTEL_TRACES_EXPORTER", "").strip().toLowerCase(Locale.ROOT);
        String endpoint = env.getOrDefault("OTEL_EXPORTER_OTLP_ENDPOINT", "").strip();
        String tracesEndpoint = env.getOrDefault("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "").strip();
        if ("true".equalsIgnoreCase(env.getOrDefault("OTEL_SDK_DISABLED", "").strip()) || exporter.equals("none")
                || (endpoint.isEmpty() && tracesEndpoint.isEmpty() && !exporter.equals("otlp"))) {
            return OFF;
        }
        if (!exporter.isEmpty() && !exporter.equals("otlp")) {
            throw new IllegalArgumentException("OTEL_TRACES_EXPORTER=" + exporter + " is not supported; Legate exports "
                    + "traces by OTLP only (otlp, or none to turn tracing off)");
        }
        String protocol = env.getOrDefault("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf").strip();
        if (!protocol.isEmpty() && !protocol.equals("http/protobuf")) {
            throw new IllegalArgumentException("OTEL_EXPORTER_OTLP_PROTOCOL=" + protocol + " is not supported; Legate "
                    + "sends OTLP over HTTP: set it to http/protobuf and point OTEL_EXPORTER_OTLP_ENDPOINT at the "
                    + "collector's HTTP port (4318 by default)");
        }
        String url;
        if (!tracesEndpoint.isEmpty()) {
            url = tracesEndpoint;
        } else {
            String base = endpoint.isEmpty() ? "http://localhost:4318" : endpoint;
            // The OTLP rule: the signal's path is appended to the general endpoint, not to a traces endpoint.
            url = (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/v1/traces";
        }
        OtlpHttpSpanExporterBuilder export = OtlpHttpSpanExporter.builder().setEndpoint(url);
        for (String pair : env.getOrDefault("OTEL_EXPORTER_OTLP_HEADERS", "").split(",")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                export.addHeader(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
            }
        }
        String name = env.getOrDefault("OTEL_SERVICE_NAME", "").strip();
        Resource resource = Resource.getDefault().merge(Resource.create(Attributes.of(
                AttributeKey.stringKey("service.name"), name.isEmpty() ? serviceName : name)));
        Duration delay = Duration.ofMillis(Long.parseLong(env.getOrDefault("OTEL_BSP_SCHEDULE_DELAY", "5000").strip()));
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(resource)
                .addSpanProcessor(BatchSpanProcessor.builder(export.build()).setScheduleDelay(delay).build())
                .build();
        return new Tracing(provider, provider.get("legate"));
    }

    /** True when spans are recorded and exported; a hot path checks this before anything else. */
    public boolean on() {
        return provider != null;
    }

    public Tracer tracer() {
        return tracer;
    }

    /** W3C Trace Context: what reads and writes {@code traceparent} and {@code tracestate}. */
    public static TextMapPropagator propagator() {
        return W3CTraceContextPropagator.getInstance();
    }

    /** Exports the spans still queued, waiting {@code max} at most. */
    public void flush(Duration max) {
        if (provider != null) {
            provider.forceFlush().join(max.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Exports what is queued (a few seconds at most) and stops the exporter. */
    @Override
    public void close() {
        if (provider != null) {
            provider.shutdown().join(5, TimeUnit.SECONDS);
        }
    }
}
