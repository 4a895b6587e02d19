package legate.a2a.server.grpc;

import legate.a2a.server.observe.ServerMetrics;

/**
 * Counts each gRPC call once, before its answer leaves, into the server's request metric under the
 * binding label {@value #BINDING}: its method and its outcome, {@link ServerMetrics#OK} or the
 * A2A error code it was answered with, as the JSON-RPC binding counts its requests.
 */
final class GrpcCallCounter {
    /** The binding label of gRPC calls in {@link ServerMetrics}. */
    static final String BINDING = "grpc";

    private final ServerMetrics metrics;

    GrpcCallCounter(ServerMetrics metrics) {
        this.metrics = metrics;
    }

    /** A call refused before its method ran; its time is not measured. */
    void count(String method, int outcome) {
        metrics.request(BINDING, method, outcome, 0);
    }

    void count(String method, int outcome, long startNanos) {
        metrics.request(BINDING, method, outcome, System.nanoTime() - startNanos);
    }
}
