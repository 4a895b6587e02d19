package legate.mcp;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.time.Clock;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import legate.a2a.client.ClientConfig;
import legate.a2a.model.LegateVersion;
import legate.a2a.server.observe.MetricsAccess;
import legate.acp.log.BridgeLogs;
import legate.a2a.server.observe.MetricsEndpoint;
import legate.a2a.server.observe.Telemetry;
import legate.mcp.guard.BearerGuard;
import legate.mcp.guard.HostGuard;
import legate.mcp.tool.A2aTools;
import legate.mcp.tool.ToolCalls;
import legate.mcp.upstream.AgentDirectory;
import legate.wire.http.BindAddress;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The MCP endpoint of {@code legate mcp}: MCP Streamable HTTP at {@value McpConfig#PATH}, serving
 * the four A2A tools to a calling agent. It is an A2A client and nothing more.
 *
 * <p>Every request passes, in order: the Host check ({@link HostGuard}, 403), the bearer check
 * ({@link BearerGuard}, 401), then the MCP SDK's session-based Streamable HTTP servlet; {@code /metrics}
 * passes the same Host check, then its own access rule ({@link MetricsAccess}).
 * PROTOCOL (MCP 2025-06-18, utilities/progress): progress notifications travel on the stream of the
 * request they belong to, which the stateless transport does not keep, hence the session-based one.
 *
 * <p>Requests run on virtual threads, so a tool call that blocks for a long turn holds a few
 * kilobytes, not a platform thread. Create, {@link #start()}, {@link #stop()}.
 */
public final class McpEndpoint implements AutoCloseable {
    private final McpConfig config;
    private final Server jetty;
    private final ServerConnector connector;
    private final AgentDirectory agents;
    private final McpSyncServer mcp;
    private final PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    /** The separate /metrics listener (METRICS_PORT), or null. */
    private final ServerConnector metricsConnector;
    private final MetricsAccess metricsAccess;
    private final BridgeLogs activity;
    private final ToolCalls calls;

    private McpEndpoint(McpConfig config, Clock clock, Telemetry telemetry, BridgeLogs activity) {
        this.config = config;
        this.activity = activity;
        this.calls = new ToolCalls(metrics, telemetry.tracing(), activity);
        ClientConfig client = new ClientConfig(config.discoveryTimeout(), config.discoveryTimeout(),
                config.requestTimeout(), config.bindings(), Map.of()).withTrust(config.trust());
        this.agents = new AgentDirectory(config.agents(), client, config.credentials());
        HttpServletStreamableServerTransportProvider transport = HttpServletStreamableServerTransportProvider.builder()
                .mcpEndpoint(McpConfig.PATH)
                .build();
        this.mcp = McpServer.sync(transport)
                .serverInfo(config.serverName(), LegateVersion.get())
                .instructions("Delegate work to A2A agents. a2a_ask sends a message and waits for the task; when its "
                        + "outcome is interrupted, answer with a2a_ask and the same taskId. a2a_task reads a task back, "
                        + "a2a_cancel stops one, a2a_card shows what an agent offers. Agents: "
                        + String.join(", ", agents.aliases()) + ".")
                .capabilities(ServerCapabilities.builder().tools(false).build())
                // The servlet thread is a virtual thread and the tools block on it by design.
                .immediateExecution(true)
                .tools(A2aTools.specifications(agents, clock, config.discoveryTimeout(), config.requestTimeout(),
                        config.heartbeat(), config.upstreamSilence(), calls))
                .build();

        QueuedThreadPool pool = new QueuedThreadPool();
        pool.setName("legate-mcp-http");
        pool.setVirtualThreadsExecutor(Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("legate-mcp-request-", 0).factory()));
        this.jetty = new Server(pool);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        this.connector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(config.host());
        connector.setPort(config.port());
        // Idle keep-alive connections and idle GET streams close after this. A tool call is not
        // subject to it: its handler holds the request while it waits (seen here with a 500 ms idle
        // timeout and a 3 s silent turn without a progress token), and the silence gate decides.
        connector.setIdleTimeout(120_000);
        jetty.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
        EnumSet<DispatcherType> requests = EnumSet.of(DispatcherType.REQUEST);
        HostGuard hostGuard = new HostGuard(config.host(), config.allowedHosts());
        context.addFilter(new FilterHolder(hostGuard), "/*", requests);
        context.addFilter(new FilterHolder(new BearerGuard(config.token(), config.serverName())), "/*", requests);
        ServletHolder servlet = new ServletHolder(transport);
        servlet.setAsyncSupported(true);
        context.addServlet(servlet, McpConfig.PATH);
        MetricsEndpoint scrape;
        if (telemetry.metricsPort() == Telemetry.ON_A2A_PORT) {
            this.metricsConnector = null;
            scrape = new MetricsEndpoint(metrics::scrape, MetricsAccess.of(telemetry.metricsToken(),
                    config.bindsLoopback(), config.host() + ":" + config.port()));
        } else {
            // A listener of its own, always on loopback.
            this.metricsConnector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(http));
            metricsConnector.setHost("127.0.0.1");
            metricsConnector.setPort(telemetry.metricsPort());
            jetty.addConnector(metricsConnector);
            scrape = new MetricsEndpoint(metrics::scrape, MetricsAccess.of(telemetry.metricsToken(), true, ""));
        }
        this.metricsAccess = scrape.access();
        ServerConnector scrapeOnly = metricsConnector;
        // The separate listener is bound to loopback, so it answers the loopback names only.
        HostGuard scrapeHosts = scrapeOnly == null ? hostGuard : new HostGuard("127.0.0.1", List.of());
        jetty.setHandler(new Handler.Wrapper(context) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                boolean onScrapeListener = request.getConnectionMetaData().getConnector() == scrapeOnly;
                if (MetricsEndpoint.PATH.equals(Request.getPathInContext(request))
                        && (scrapeOnly == null || onScrapeListener)) {
                    // DEFECT (issue 30): /metrics is served here, before the servlet context whose
                    // filter checks Host, so a DNS-rebinding page read it (200) while /mcp said 403.
                    String refused = scrapeHosts.refusal(request.getHeaders().get(HttpHeader.HOST),
                            request.getHeaders().get(HttpHeader.ORIGIN));
                    if (refused != null) {
                        response.setStatus(403);
                        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
                        Content.Sink.write(response, true, refused + "\n", callback);
                        return true;
                    }
                    return scrape.handle(request, response, callback);
                }
                return !onScrapeListener && super.handle(request, response, callback);
            }
        });
    }

    /** Who may read /metrics: a {@link MetricsAccess.Refused} says why it is not served. */
    public MetricsAccess metricsAccess() {
        return metricsAccess;
    }

    /** What this endpoint counts, for the caller to add meters to. */
    public MeterRegistry metrics() {
        return metrics;
    }

    /** The port of the separate /metrics listener (METRICS_PORT), or the MCP port. */
    public int metricsPort() {
        return metricsConnector == null ? port() : metricsConnector.getLocalPort();
    }

    /** An endpoint with the system clock. */
    public static McpEndpoint create(McpConfig config) {
        return new McpEndpoint(config, Clock.systemUTC(), Telemetry.DEFAULT, BridgeLogs.disabled());
    }

    public static McpEndpoint create(McpConfig config, Clock clock) {
        return new McpEndpoint(config, clock, Telemetry.DEFAULT, BridgeLogs.disabled());
    }

    /** An endpoint serving /metrics and tracing each tool call as {@code telemetry} says. */
    public static McpEndpoint create(McpConfig config, Clock clock, Telemetry telemetry) {
        return new McpEndpoint(config, clock, telemetry, BridgeLogs.disabled());
    }

    /** The same, writing its activity (listen, ask, ask.abandoned, upstream.broken) into {@code activity}, which it closes. */
    public static McpEndpoint create(McpConfig config, Clock clock, Telemetry telemetry, BridgeLogs activity) {
        return new McpEndpoint(config, clock, telemetry, activity);
    }

    /** Binds and starts serving; returns the bound port. */
    public int start() throws Exception {
        try {
            jetty.start();
        } catch (IOException e) {
            jetty.stop();
            throw e;
        }
        Map<String, Object> listen = new LinkedHashMap<>();
        listen.put("url", url());
        listen.put("agents", agents.aliases());
        calls.activity("listen", listen);
        return connector.getLocalPort();
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** The URL a caller connects to, with a loopback address for a wildcard bind. */
    public String url() {
        return BindAddress.dialableUrl(config.host(), port(), McpConfig.PATH);
    }

    public void stop() throws Exception {
        try {
            mcp.closeGracefully();
        } finally {
            jetty.stop();
            agents.close();
            activity.close();
        }
    }

    public void join() throws InterruptedException {
        jetty.join();
    }

    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            throw new IllegalStateException("the MCP endpoint did not stop cleanly", e);
        }
    }
}
