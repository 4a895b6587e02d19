package legate.cli;

import legate.a2a.server.AgentServer;
import legate.a2a.server.observe.MetricsAccess;
import legate.wire.http.BindAddress;

/** The start-up line that says where /metrics is, who may read it, or why it is not served. */
final class MetricsNotice {
    private MetricsNotice() {
    }

    /** @param host the A2A bind address; a separate METRICS_PORT listener is on 127.0.0.1 */
    static void print(String command, AgentServer server, String host) {
        print(command, server.metricsAccess(), server.metricsPort() == server.port() ? host : "127.0.0.1",
                server.metricsPort());
    }

    static void print(String command, MetricsAccess access, String host, int port) {
        String url = BindAddress.dialableUrl(host, port, "/metrics");
        switch (access) {
            case MetricsAccess.Refused r -> System.err.println(command + ": warning: " + r.why());
            case MetricsAccess.Token t -> System.out.println("Metrics: " + url + " (bearer METRICS_TOKEN)");
            case MetricsAccess.Open o -> System.out.println("Metrics: " + url);
            case MetricsAccess.Authenticated a -> System.out.println("Metrics: " + url + " (the A2A credentials)");
            case null -> {
            }
        }
    }
}
