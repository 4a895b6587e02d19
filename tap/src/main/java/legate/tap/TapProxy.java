package legate.tap;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The wire tap: a transparent HTTP proxy in front of one A2A agent that reports every exchange to
 * its listeners (the console, a log) while it forwards it; the listeners run on a thread of their
 * own ({@link ListenerThread}), so showing an exchange never slows it. Create, then {@link #start()}, then
 * {@link #stop()}.
 *
 * <p>Transparent means: the method, path, query, end-to-end headers and body reach the agent as
 * the client sent them, and the status, end-to-end headers and body reach the client as the agent
 * sent them, byte for byte and, for a stream, at the agent's pace. Only what belongs to one
 * connection changes (hop-by-hop headers, chunk boundaries, Host). When the agent cannot be reached
 * the tap answers 502 itself, with a JSON-RPC error naming the target.
 *
 * <p>Each exchange runs on its own virtual thread, which also does its upstream I/O: a held stream
 * costs a few kilobytes.
 */
public final class TapProxy implements AutoCloseable {
    // Streams stay open across long turns; the agent's keep-alive comments keep them under this.
    private static final long IDLE_TIMEOUT_MS = 120_000;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final TapConfig config;
    private final Server jetty;
    private final ServerConnector connector;
    private final UpstreamClient client;
    private final ListenerThread listeners;

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
        // HTTP/1.1 over kept-alive sockets, blocking on the exchange's thread: no selector thread and
        // no hand-over per exchange (the JDK HttpClient cost the tap five times the agent's CPU).
        this.client = new UpstreamClient(config.target(), CONNECT_TIMEOUT);
        this.listeners = new ListenerThread(listeners);
        jetty.setHandler(new ExchangeHandler(config, client, this.listeners, clock));
    }

    /** Binds, starts forwarding, and returns the port. */
    public int start() throws Exception {
        try {
            listeners.start();
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

    /** Stops listening, breaks off every exchange still in flight, and reports what they did. */
    public void stop() throws Exception {
        // Upstream first: open streams end, so their exchanges finish before Jetty stops.
        client.close();
        try {
            jetty.stop();
        } finally {
            // Last: every event of the exchanges that just ended reaches the listeners first.
            listeners.close();
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
