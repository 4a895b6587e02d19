package legate.a2a.server.observe;

import legate.wire.trace.Tracing;

/**
 * How an A2A server reports on itself: where {@code /metrics} is served and who may read it, and
 * whether it traces.
 *
 * @param metricsPort 0 or more: a separate loopback listener for {@code /metrics} on that port
 *                    (0 picks one); {@link #ON_A2A_PORT}: {@code /metrics} on the A2A port
 * @param metricsToken the bearer token {@code /metrics} asks for; null or blank: none
 * @param tracing the tracer (off unless the OTEL_* variables ask for it)
 */
public record Telemetry(int metricsPort, String metricsToken, Tracing tracing) {
    public static final int ON_A2A_PORT = -1;
    /** {@code /metrics} on the A2A port with no token, no tracing. */
    public static final Telemetry DEFAULT = new Telemetry(ON_A2A_PORT, null, Tracing.OFF);

    public Telemetry {
        if (metricsPort < ON_A2A_PORT || metricsPort > 65535) {
            throw new IllegalArgumentException("METRICS_PORT must be a port number (0-65535), got " + metricsPort);
        }
        if (tracing == null) {
            tracing = Tracing.OFF;
        }
    }
}
