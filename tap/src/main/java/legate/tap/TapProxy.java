package legate.tap;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The wire tap: a transparent HTTP proxy in front of one A2A agent that reports every exchange to
 * its listeners (the console, a log) while it forwards it. Create, then {@link #start()}, then
 * {@link #stop()}.
 *
 * <p>Transparent means: the method, path, query, end-to-end headers and body reach the agent as
 * the client sent them, and the status, end-to-end headers and body reach the client as the agent
 * sent them, byte for byte and, for a stream, at the agent's pace. Only what belongs to one
 * connection changes (hop-by-hop headers, chunk boundaries, Host). When the agent cannot be reached
 * the tap answers 502 itself, with a JSON-RPC error naming the target.
 *
 * <p>Each exchange runs on its own virtual thread, on both sides: a held stream costs a few kilobytes.
 */
public final class TapProxy implements AutoCloseable {
    // Streams stay open across long turns; the agent's keep-alive comments keep them under this.
    private static final long IDLE_TIMEOUT_MS = 120_000;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final TapConfig config;
    private final Server jetty;
    private final ServerConnector connector;
    private final ExecutorService upstreamThreads;
    private final HttpClient client;

    public TapProxy(TapConfig config, List<ExchangeListener> listeners, Clock clock) {
        this.config = config;
        QueuedThreadPool pool = new QueuedThreadPool();
        pool.setName("legate-tap");
        pool.setVirtualThreadsExecutor(Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("legate-tap-exchange-", 0).factory()));
        this.jetty = new Server(pool);
        HttpConfiguration http = new HttpConfiguration();
        // The agent's own Date and Server headers pass through; the tap adds none of its own.
        http.setSendServerVersion(false);
        http.setSendDateHeader(false);
        this.connector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(http));
        connector.setHost(config.host());
        connector.setPort(config.port());
        connector.setIdleTimeout(IDLE_TIMEOUT_MS);
        jetty.addConnector(connector);
        this.upstreamThreads = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("legate-tap-upstream-", 0).factory());
        this.client = HttpClient.newBuilder()
                // PEER (JDK HttpClient): left to choose, it offers h2c with "Upgrade" and
                // "HTTP2-Settings" headers the client never sent; HTTP/1.1 keeps the request as sent.
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(CONNECT_TIMEOUT)
                .executor(upstreamThreads)
                .build();
        jetty.setHandler(new ExchangeHandler(config, client, listeners, clock));
    }

    /** Binds, starts forwarding, and returns the port. */
    public int start() throws Exception {
        try {
            jetty.start();
        } catch (Exception e) {
            stop();
            throw e;
        }
        return connector.getLocalPort();
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** The URL clients dial: the bound address, with a wildcard bind shown as loopback. */
    public URI url() {
        String host = config.host();
        if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
            host = "127.0.0.1";
        } else if (host.contains(":") && !host.startsWith("[")) {
            host = "[" + host + "]";
        }
        return URI.create("http://" + host + ":" + port() + "/");
    }

    public URI target() {
        return config.target();
    }

    /** Stops listening and breaks off every exchange still in flight. */
    public void stop() throws Exception {
        // Upstream first: open streams end, so their exchanges finish before Jetty stops.
        client.shutdownNow();
        try {
            jetty.stop();
        } finally {
            upstreamThreads.shutdownNow();
        }
    }

    /** Blocks until the tap stops. */
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
            throw new IllegalStateException("the tap did not stop cleanly", e);
        }
    }
}
