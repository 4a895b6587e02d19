package legate.tap.proxy;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import legate.tap.show.ExchangeListener;
import legate.tap.show.ListenerThread;
import legate.tap.show.ShownHeaders;
import legate.wire.http.BindAddress;
import legate.wire.http.KnownHosts;

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
 * <p>It speaks HTTP/1.1 itself on both sides: each client connection has a thread of its own and a
 * connection to the agent of its own, and blocks on both ({@link ClientConnection}).
 */
public final class TapProxy implements AutoCloseable {
    // Between requests only: an exchange in progress (a long turn, a quiet stream) is never cut off.
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final TapConfig config;
    private final Duration idleTimeout;
    private final UpstreamDialer dialer;
    private final ListenerThread listeners;
    private final TapContext context;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private ClientAcceptor acceptor;

    public TapProxy(TapConfig config, List<ExchangeListener> listeners, Clock clock) {
        this(config, listeners, ShownHeaders.A2A, clock, IDLE_TIMEOUT);
    }

    /**
     * @param headers which headers the events carry: {@link ShownHeaders#ALL} for the web page's raw view; the
     *     API key header they mask is the config's
     */
    public TapProxy(TapConfig config, List<ExchangeListener> listeners, ShownHeaders headers, Clock clock) {
        this(config, listeners, headers, clock, IDLE_TIMEOUT);
    }

    /** @param idleTimeout how long a client connection may wait between requests before the tap closes it */
    TapProxy(TapConfig config, List<ExchangeListener> listeners, ShownHeaders headers, Clock clock, Duration idleTimeout) {
        this(config, listeners, headers, clock, idleTimeout, System.out);
    }

    /** @param console where the tap says what it only forwards (a gRPC connection) */
    TapProxy(TapConfig config, List<ExchangeListener> listeners, ShownHeaders headers, Clock clock, Duration idleTimeout,
             PrintStream console) {
        this.config = config;
        this.idleTimeout = idleTimeout;
        this.dialer = new UpstreamDialer(config.target(), config.targetTls(), CONNECT_TIMEOUT);
        this.listeners = new ListenerThread(listeners);
        this.context = new TapContext(config.target(), config.maxRequestBytes(), this.listeners,
                headers.withApiKeyHeader(config.apiKeyHeader()), clock, new AtomicLong(), resolved(config.grpcTarget()),
                // DEFECT (issue 30): a tap bound wider than loopback once answered every Host, so a
                // DNS-rebinding page reached the agent through it (the tap rewrites Host to the agent's
                // name). The rule is the A2A server's on every bind: its bind and interface addresses,
                // loopback names, and TAP_ALLOWED_HOSTS ('*' turns it off, said out loud).
                console, KnownHosts.forBind(config.host(), config.allowedHosts()));
    }

    private static InetSocketAddress resolved(InetSocketAddress grpc) {
        return grpc == null ? null : new InetSocketAddress(grpc.getHostString(), grpc.getPort());
    }

    /** Binds, starts forwarding, and returns the port. */
    public synchronized int start() throws IOException {
        if (acceptor != null) {
            throw new IllegalStateException("the tap has been started already");
        }
        acceptor = new ClientAcceptor(config.host(), config.port(), connectionThreads(), idleTimeout);
        listeners.start();
        ClientAcceptor a = acceptor;
        a.start(socket -> new ClientConnection(socket, dialer, context));
        return acceptor.port();
    }

    /**
     * Platform threads: a connection's thread sleeps in the kernel's read and is woken by it
     * directly; a virtual thread would go through the JDK's poller and a carrier thread on every
     * read, which measured as more CPU per exchange (docs/benchmarks.md, workload 6).
     */
    private static ThreadFactory connectionThreads() {
        return Thread.ofPlatform().name("legate-tap-connection-", 0).daemon().factory();
    }

    public int port() {
        return acceptor.port();
    }

    /** The URL clients dial: the bound address, with a wildcard bind shown as loopback. */
    public URI url() {
        return URI.create(BindAddress.dialableUrl(config.host(), port(), "/"));
    }

    public URI target() {
        return config.target();
    }

    /** Stops listening, breaks off every exchange still in flight, and reports what they did. */
    public void stop() throws InterruptedException {
        ClientAcceptor a;
        synchronized (this) {
            a = acceptor;
        }
        try {
            if (a != null) {
                a.stopAccepting();
            }
            // Upstream first: open streams end, so their exchanges finish and report before their
            // client connections close.
            dialer.close();
            if (a != null) {
                a.close();
            }
        } finally {
            // Last: every event of the exchanges that just ended reaches the listeners first.
            listeners.close();
            stopped.countDown();
        }
    }

    /** Blocks until the tap stops. */
    public void join() throws InterruptedException {
        stopped.await();
    }

    @Override
    public void close() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
