package legate.a2a.server.grpc;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.ClientCertificateCheck;
import legate.a2a.server.edge.TlsIdentity;
import legate.a2a.server.http.PeerForwarding;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.observe.ThrottledLog;
import legate.a2a.server.task.RequestHandler;
import legate.wire.http.KnownHosts;
import org.slf4j.LoggerFactory;

/**
 * The gRPC binding's listener (A2A §10): grpc-java on Netty serving {@code lf.a2a.v1.A2AService} on
 * its own port, HTTP/2 in clear text or, with the server's TLS identity, over TLS (ALPN h2). Every
 * call runs on a virtual thread, since a blocking SendMessage waits for its turn to end.
 *
 * <p>It serves the same {@link RequestHandler} as the HTTP listener, so a task created over gRPC is
 * read, cancelled and subscribed to over JSON-RPC alike.
 */
public final class GrpcListener {
    /** Malformed requests are a caller's to send as often as it likes: one log line a minute at most. */
    private static final Duration MALFORMED_LOG_INTERVAL = Duration.ofMinutes(1);
    /** How long a connection with no call in flight stays open, as the HTTP listener's idle timeout. */
    public static final Duration IDLE_TIMEOUT = Duration.ofSeconds(120);

    private final Server server;
    private final A2aGrpcService service;
    private final ExecutorService calls;
    private final String host;
    private final int requestedPort;
    private final AuthorityInterceptor authority = new AuthorityInterceptor();

    /**
     * @param port 0 for any free port ({@link #start()} returns the one bound)
     * @param maxMessageBytes the largest request message accepted (MAX_BODY_BYTES, as for JSON-RPC);
     *     a larger one is refused RESOURCE_EXHAUSTED by grpc-java before it is parsed
     * @param tls the server's TLS identity, or null for clear text (h2c)
     */
    public GrpcListener(String host, int port, int maxMessageBytes, CallerAuthentication authentication,
                        TlsIdentity tls, ClientCertificateCheck clientCheck, ServerMetrics metrics,
                        PeerForwarding forwarding) {
        this(host, port, maxMessageBytes, authentication, tls, clientCheck, metrics, forwarding, IDLE_TIMEOUT);
    }

    /**
     * The same, closing a connection that has had no call for {@code idleTimeout}.
     *
     * @param idleTimeout how long a connection with no call in flight stays open ({@link #IDLE_TIMEOUT})
     */
    public GrpcListener(String host, int port, int maxMessageBytes, CallerAuthentication authentication,
                        TlsIdentity tls, ClientCertificateCheck clientCheck, ServerMetrics metrics,
                        PeerForwarding forwarding, Duration idleTimeout) {
        this.host = host;
        this.requestedPort = port;
        ThrottledLog malformed = new ThrottledLog(LoggerFactory.getLogger(MalformedRequests.class), MALFORMED_LOG_INTERVAL);
        // A request whose framing is broken never reaches the service: grpc-java's transport logs it, so it is
        // that log that is held to one line per interval, the same one as for a message that does not parse.
        MalformedFrames.reportTo(malformed);
        GrpcCallCounter counter = new GrpcCallCounter(metrics);
        this.service = new A2aGrpcService(counter, forwarding);
        this.calls = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("legate-grpc-", 0).factory());
        NettyServerBuilder builder = NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
                .executor(calls)
                .maxInboundMessageSize(maxMessageBytes)
                // DEFECT (issue 30): a gRPC connection with no call stayed open for good (grpc-java's default),
                // where the HTTP listener closes one after its idle timeout; held calls are bounded by
                // MAX_STREAMS_PER_PRINCIPAL, and an idle connection now goes as it does over HTTP.
                .maxConnectionIdle(idleTimeout.toNanos(), TimeUnit.NANOSECONDS)
                // Outermost: a request that is not valid protobuf is refused before any interceptor runs.
                // Of the interceptors, the last given runs first: the authority before the caller's credential.
                .addService(MalformedRequests.guard(ServerInterceptors.intercept(service,
                        new CallerInterceptor(authentication, counter), new FirstEventIds(), authority), malformed));
        if (tls != null) {
            builder.sslContext(sslContext(tls, clientCheck));
        }
        this.server = builder.build();
        metrics.watchOpenStreams(GrpcCallCounter.BINDING, service::openStreams);
    }

    /**
     * Binds and starts listening; the port bound. Calls are answered UNAVAILABLE until
     * {@link #serve}: the card, which names this port, is built in between.
     */
    public int start() throws IOException {
        try {
            server.start();
        } catch (IOException e) {
            // Netty's own message names no port; a clash of GRPC_PORT must say which listener failed.
            throw new IOException("the gRPC listener cannot bind " + host + ":" + requestedPort + " (GRPC_PORT): "
                    + (e.getCause() == null ? e.getMessage() : e.getCause().getMessage()), e);
        }
        return port();
    }

    /** From now on every call whose {@code :authority} is one of {@code hosts} is answered by {@code handler}. */
    public void serve(RequestHandler handler, KnownHosts hosts) {
        authority.answer(hosts);
        service.serve(handler);
    }

    public int port() {
        return server.getPort();
    }

    /** The gRPC streams being written now. */
    public int openStreams() {
        return service.openStreams();
    }

    /** Ends every open stream cleanly (the server is draining; new turns are refused by the handler). */
    public void endStreams() {
        service.endStreams();
    }

    /** Stops listening and ends the calls still open. Safe to call more than once. */
    public void stop() throws InterruptedException {
        server.shutdown();
        if (!server.awaitTermination(1, TimeUnit.SECONDS)) {
            server.shutdownNow();
            server.awaitTermination(1, TimeUnit.SECONDS);
        }
        calls.shutdownNow();
    }

    /** TLS with the HTTP listener's identity, and its mutual TLS: a client certificate asked for, checked against the same authorities. */
    private static SslContext sslContext(TlsIdentity tls, ClientCertificateCheck clientCheck) {
        try {
            SslContextBuilder builder = SslContextBuilder.forServer(tls.key(), tls.chain().toArray(X509Certificate[]::new));
            if (clientCheck != null) {
                builder.trustManager(clientCheck).clientAuth(ClientAuth.OPTIONAL);
            }
            return GrpcSslContexts.configure(builder).build();
        } catch (SSLException e) {
            throw new IllegalArgumentException("the TLS identity cannot serve gRPC: " + e.getMessage(), e);
        }
    }
}
