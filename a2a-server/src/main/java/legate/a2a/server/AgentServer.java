package legate.a2a.server;

import java.io.IOException;
import com.nimbusds.jose.jwk.JWK;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.ClientCertificateCheck;
import legate.a2a.server.auth.ForwardedCertificates;
import legate.a2a.server.card.AgentCardHandler;
import legate.a2a.server.card.JwksHandler;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.edge.CorsHandler;
import legate.a2a.server.edge.HostHandler;
import legate.a2a.server.edge.ServerNames;
import legate.a2a.server.edge.Https;
import legate.a2a.server.edge.TlsIdentity;
import legate.a2a.server.grpc.GrpcListener;
import legate.a2a.server.http.A2aErrorPage;
import legate.a2a.server.http.PeerForwarding;
import legate.a2a.server.jsonrpc.JsonRpcHandler;
import legate.a2a.server.observe.MetricsAccess;
import legate.a2a.server.observe.MetricsEndpoint;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.observe.Telemetry;
import legate.a2a.server.observe.TimedTaskStore;
import legate.a2a.server.push.PushNotifications;
import legate.a2a.server.push.PushSettings;
import legate.a2a.server.rest.RestHandler;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.InstanceGroup;
import legate.a2a.server.task.RequestHandler;
import legate.a2a.server.task.TaskStore;
import legate.a2a.server.task.UnsettledTasks;
import legate.a2a.server.v03.V03Dialect;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.VirtualThreadPool;

/**
 * An A2A v1.0 server: the Agent Card, the JSON-RPC and HTTP+JSON bindings (and v0.3's JSON-RPC beside them)
 * and the JWKS (the keys of the card's signature and of push deliveries) on one Jetty listener, the gRPC
 * binding on a port of its own (when served: {@link ServerConfig#grpcPort()}), sending push notifications, in front of
 * an {@link AgentExecutor}, keeping its tasks in a {@link TaskStore} it owns from then on. Create,
 * then {@link #start()}, then {@link #stop()}, which closes the store.
 *
 * <p>Every Jetty task (the selector's included), every request handler and every turn of an agent
 * runs on a virtual thread; an open stream holds no thread of its own, only its connection (the
 * agent's turn behind it may hold one).
 */
public final class AgentServer implements AutoCloseable {
    private final Server jetty;
    private final ServerConnector connector;
    private final ExecutorService turns;
    private final ServerConfig config;
    private final IntFunction<AgentCard> cardForPort;
    private final AgentExecutor executor;
    private final TaskStore store;
    private final Clock clock;
    private final InstanceGroup group;
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final Telemetry telemetry;
    private final ServerMetrics metrics;
    /** The separate /metrics listener (METRICS_PORT), or null: /metrics is on the A2A port. */
    private final ServerConnector metricsConnector;
    private volatile MetricsEndpoint metricsEndpoint;
    private volatile RequestHandler handler;
    private volatile JsonRpcHandler rpc;
    /** The v0.3 JSON-RPC endpoint (ProtocolBinding.JSONRPC_0_3), or null when it is not served. */
    private volatile JsonRpcHandler rpc03;
    private volatile RestHandler rest;
    private volatile RetentionSweep retention;
    /** The gRPC binding's listener, on a port of its own; null when GRPC is not among the bindings served. */
    private final GrpcListener grpc;
    private volatile PushNotifications push;
    /** Carries a request to the instance that runs its conversation; one for every binding. */
    private final PeerForwarding forwarding;
    /** The card's schemes, and a client certificate another instance verified taken as presented. */
    private final CallerAuthentication authentication;

    private AgentServer(ServerConfig config, IntFunction<AgentCard> cardForPort, AgentExecutor executor,
                        TaskStore store, Clock clock, Telemetry telemetry, ServerMetrics metrics, InstanceGroup group) {
        this.group = group;
        this.metrics = metrics;
        this.config = config;
        this.cardForPort = cardForPort;
        this.executor = executor;
        this.telemetry = telemetry;
        this.store = new TimedTaskStore(store, metrics);
        this.clock = clock;
        // Every Jetty task on a virtual thread, the selector's included, with no cap. A stream ends
        // on the agent's thread, and Jetty then resumes the connection through its executor: with
        // a pool of platform threads, the next request on that connection was read and handled on
        // one of them, and the hand-offs cost a sixth of a stream's CPU in the profile.
        VirtualThreadPool pool = new VirtualThreadPool(0);
        pool.setName("legate-http");
        pool.setVirtualThreadsExecutor(Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("legate-request-", 0).factory()));
        // Buffers in 1 KB steps (Jetty's default is 4 KB), so that the small read buffer below is small.
        this.jetty = new Server(pool, null, new ArrayByteBufferPool(0, 1024, 65536));
        // DEFECT: stopping waited the default graceful period for open streams and keep-alive
        // connections (about 10 s seen in a test); a stopping agent answers no one anyway.
        jetty.setStopTimeout(1000);
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        HttpConnectionFactory http1 = new HttpConnectionFactory(http);
        // Jetty keeps a connection's read buffer until its response is complete, which for a held
        // stream is as long as the task runs. A2A requests are a few hundred bytes; a larger body
        // is read in several fills. (8 KB, the default, was a third of a held stream's memory.)
        http1.setInputBufferSize(2048);
        byte[] peerKey = group.peerKey();
        // Made once: it keeps what it made of the revocation lists, for the handshakes of every listener.
        ClientCertificateCheck clientCheck = config.security().authentication().clientCheck();
        if (clientCheck != null && clientCheck.revokes()) {
            metrics.watchClientRevocationLists(clientCheck::nextUpdateEpochSeconds);
        }
        ForwardedCertificates vouched = peerKey == null ? null : new ForwardedCertificates(peerKey, clock, clientCheck);
        TlsIdentity tls = config.edge().tls();
        this.forwarding = new PeerForwarding(tls == null ? null : tls::peerContext, vouched);
        this.authentication = config.security().authentication().withForwarded(vouched);
        if (clientCheck != null && config.edge().tls() == null) {
            throw new IllegalArgumentException("mutual TLS needs TLS: a client certificate is presented in the TLS"
                    + " handshake, so the server must serve HTTPS (TLS_CERT, TLS_KEY)");
        }
        this.connector = config.edge().tls() == null ? new ServerConnector(jetty, 1, 1, http1)
                : Https.connector(jetty, http, http1, config.edge().tls(), clientCheck);
        connector.setHost(config.host());
        connector.setPort(config.port());
        // Streams stay open across long turns; SSE keep-alive comments keep them under this.
        connector.setIdleTimeout(120_000);
        connector.setAcceptQueueSize(1024);
        jetty.addConnector(connector);
        if (telemetry.metricsPort() == Telemetry.ON_A2A_PORT) {
            this.metricsConnector = null;
        } else {
            // A listener of its own, always on loopback: a scraper on this host, or a sidecar.
            this.metricsConnector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(http));
            metricsConnector.setHost("127.0.0.1");
            metricsConnector.setPort(telemetry.metricsPort());
            jetty.addConnector(metricsConnector);
        }
        this.turns = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("legate-turn-", 0).factory());
        this.grpc = config.serves(ProtocolBinding.GRPC) ? new GrpcListener(config.host(), config.grpcPort(),
                config.maxBodyBytes(), authentication, config.edge().tls(), clientCheck, metrics, forwarding) : null;
    }

    /**
     * A server with an in-memory task store (at most {@link InMemoryTaskStore#DEFAULT_MAX_FINISHED}
     * finished tasks) and the system clock.
     *
     * @param cardForPort builds the Agent Card once the port is bound (port 0 is only known then)
     */
    public static AgentServer create(ServerConfig config, IntFunction<AgentCard> cardForPort, AgentExecutor executor) {
        return new AgentServer(config, cardForPort, executor, new InMemoryTaskStore(), Clock.systemUTC(),
                Telemetry.DEFAULT, new ServerMetrics(), InstanceGroup.ALONE);
    }

    /**
     * A server that keeps its tasks in {@code store} (closed by {@link #stop()}) and reads the time
     * from {@code clock} (status timestamps, retention).
     */
    public static AgentServer create(ServerConfig config, IntFunction<AgentCard> cardForPort, AgentExecutor executor,
                                     TaskStore store, Clock clock) {
        return new AgentServer(config, cardForPort, executor, store, clock, Telemetry.DEFAULT, new ServerMetrics(),
                InstanceGroup.ALONE);
    }

    /** The same, as one instance of {@code group} sharing {@code store}. */
    public static AgentServer create(ServerConfig config, IntFunction<AgentCard> cardForPort, AgentExecutor executor,
                                     TaskStore store, Clock clock, InstanceGroup group) {
        return new AgentServer(config, cardForPort, executor, store, clock, Telemetry.DEFAULT, new ServerMetrics(), group);
    }

    /** The same, serving {@code /metrics} and tracing as {@code telemetry} says. */
    public static AgentServer create(ServerConfig config, IntFunction<AgentCard> cardForPort, AgentExecutor executor,
                                     TaskStore store, Clock clock, Telemetry telemetry) {
        return new AgentServer(config, cardForPort, executor, store, clock, telemetry, new ServerMetrics(),
                InstanceGroup.ALONE);
    }

    /** The same, counting into {@code metrics}, which its caller may have added meters to (the bridge). */
    public static AgentServer create(ServerConfig config, IntFunction<AgentCard> cardForPort, AgentExecutor executor,
                                     TaskStore store, Clock clock, Telemetry telemetry, ServerMetrics metrics) {
        return new AgentServer(config, cardForPort, executor, store, clock, telemetry, metrics, InstanceGroup.ALONE);
    }

    /** The same, as one instance of {@code group}, with telemetry. */
    public static AgentServer create(ServerConfig config, IntFunction<AgentCard> cardForPort, AgentExecutor executor,
                                     TaskStore store, Clock clock, Telemetry telemetry, ServerMetrics metrics,
                                     InstanceGroup group) {
        return new AgentServer(config, cardForPort, executor, store, clock, telemetry, metrics, group);
    }

    /**
     * Binds, joins the instance group (alone: fails every task the last run of the store left
     * running; in a group: those of the instances that are gone), builds the card for the bound
     * port, starts serving and the retention sweep, and returns the port.
     */
    public int start() throws Exception {
        connector.open();
        int port = connector.getLocalPort();
        // The gRPC port is bound before the card is built, since the card names it (host:port).
        int grpcPort = -1;
        UnsettledTasks unsettled = new UnsettledTasks(store, clock);
        try {
            if (grpc != null) {
                grpcPort = grpc.start();
            }
            // Before serving: no caller may see a task WORKING that nothing will ever finish.
            group.join(port, unsettled);
        } catch (IOException | RuntimeException e) {
            connector.close();
            if (grpc != null) {
                grpc.stop();
            }
            throw e;
        }
        // Security at the edge: the card declares the schemes the JSON-RPC handler enforces.
        ServerSecurity security = config.security();
        ServerEdge edge = config.edge();
        AgentCard built = LegateCards.withInterfaces(cardForPort.apply(port), config.bindings(), grpcPort,
                config.grpcPublicAddress());
        // PROTOCOL (A2A §3.3.4): the capability says the four push methods are served.
        built = built.toBuilder().setCapabilities(built.getCapabilities().toBuilder().setPushNotifications(true)).build();
        AgentCard unsigned = security.publicCard(built);
        AgentCard extended = security.extendedCardOver(unsigned);
        // PROTOCOL (A2A §8.4): signed last, so the signature covers the card as served, security schemes included.
        AgentCard card = edge.cardKey() == null ? unsigned : edge.cardKey().sign(unsigned);
        if (extended != null && edge.cardKey() != null) {
            extended = edge.cardKey().sign(extended);
        }
        // PUSH_SIGNING_KEY, else the card signing key: one key, one JWKS entry, for a receiver to fetch.
        PushSettings pushSettings = config.push().signingKey() == null && edge.cardKey() != null
                ? config.push().withSigningKey(edge.cardKey()) : config.push();
        PushNotifications pushing = new PushNotifications(pushSettings, store, clock, metrics,
                card.getSupportedInterfacesCount() == 0 ? null : card.getSupportedInterfaces(0).getUrl(), new Random());
        this.push = pushing;
        // A task of a lost instance failed here from now on: its webhooks are delivered from here.
        unsettled.onEnded(pushing::adopt);
        RequestHandler h = new RequestHandler(executor, pushing.watching(store), card, extended, clock,
                RandomIds::next, config.cancelWait(), turns, security.maxTasksPerPrincipal(), group, metrics,
                telemetry.tracing(), pushing, security.maxStreamsPerPrincipal());
        this.handler = h;
        // Every listener (gRPC and the /metrics one too) answers only the names the server is known by,
        // and refuses a browser page of another origin unless CORS_ORIGINS allows it (README "Security").
        ServerNames names = ServerNames.of(config.host(), card.getSupportedInterfacesList().stream()
                .map(AgentInterface::getUrl).toList(), edge.allowedHosts(), group.url());
        if (grpc != null) {
            grpc.serve(h, names.hosts());
        }
        Handler cardHandler = new AgentCardHandler(card, clock.instant());
        JsonRpcHandler rpc = new JsonRpcHandler(h, authentication, config.maxBodyBytes(),
                jetty.getScheduler(), config.keepAlive(), metrics, telemetry.tracing(), forwarding);
        this.rpc = rpc;
        metrics.watchOpenStreams(JsonRpcHandler.BINDING, rpc::openStreams);
        RestHandler restBinding = new RestHandler(h, config.rpcPath(), authentication, config.maxBodyBytes(),
                jetty.getScheduler(), config.keepAlive(), metrics, telemetry.tracing(), forwarding);
        this.rest = restBinding;
        metrics.watchOpenStreams(RestHandler.BINDING, restBinding::openStreams);
        MetricsEndpoint scrape = new MetricsEndpoint(metrics::scrape, metricsConnector != null
                ? MetricsAccess.of(telemetry.metricsToken(), true, "", security.authentication())
                : MetricsAccess.of(telemetry.metricsToken(), isLoopback(config.host()), config.host() + ":" + port,
                        security.authentication()));
        this.metricsEndpoint = scrape;
        ServerConnector scrapeOnly = metricsConnector;
        String rpcPath = config.rpcPath();
        // One route per binding served (ProtocolBinding.SERVED lists those this build has).
        boolean jsonRpc = config.serves(ProtocolBinding.JSONRPC);
        // PROTOCOL (A2A §3.6): v0.3 has its own URL (its card entry), the same edge, and its own dialect.
        JsonRpcHandler v03 = !config.serves(ProtocolBinding.JSONRPC_0_3) ? null : new JsonRpcHandler(new V03Dialect(),
                h, authentication, config.maxBodyBytes(), jetty.getScheduler(), config.keepAlive(), metrics,
                telemetry.tracing(), forwarding);
        String v03Path = ProtocolBinding.JSONRPC_0_3.urlFrom(rpcPath);
        this.rpc03 = v03;
        if (v03 != null) {
            metrics.watchOpenStreams(V03Dialect.BINDING, v03::openStreams);
        }
        boolean httpJson = config.serves(ProtocolBinding.HTTP_JSON);
        // One JWKS for every key the server signs with: the card's and the push deliveries' (README "Push notifications").
        Handler jwks = new JwksHandler(() -> publishedKeys(edge, pushing));
        Handler routes = new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String path = Request.getPathInContext(request);
                if (MetricsEndpoint.PATH.equals(path)
                        && (scrapeOnly == null || request.getConnectionMetaData().getConnector() == scrapeOnly)) {
                    return scrape.handle(request, response, callback);
                }
                if (scrapeOnly != null && request.getConnectionMetaData().getConnector() == scrapeOnly) {
                    return false;
                }
                if (AgentCardHandler.PATH.equals(path)) {
                    return cardHandler.handle(request, response, callback);
                }
                if (jsonRpc && rpcPath.equals(path)) {
                    return rpc.handle(request, response, callback);
                }
                if (v03 != null && v03Path.equals(path)) {
                    return v03.handle(request, response, callback);
                }
                if (jwks != null && JwksHandler.PATH.equals(path)) {
                    return jwks.handle(request, response, callback);
                }
                // Last: its paths are everything under the interface URL's path (all of them when that
                // is "/"), and an unknown one gets its 404 error body.
                if (httpJson && restBinding.serves(path)) {
                    return restBinding.handle(request, response, callback);
                }
                return false;
            }
        };
        jetty.setHandler(new HostHandler(names.hosts(), new CorsHandler(edge.cors(), names.ownOrigins(), routes)));
        // A request with a path Jetty could not read is most likely a REST one: only REST paths carry
        // ids a client percent-encodes; a JSON-RPC client POSTs to one fixed URL.
        jetty.setErrorHandler(new A2aErrorPage(p -> httpJson && (p == null || !(jsonRpc && rpcPath.equals(p))
                && !(v03 != null && v03Path.equals(p)) && restBinding.serves(p)),
                RestHandler::errorBody, (e, status) -> JsonRpcHandler.errorBody(e)));
        try {
            jetty.start();
        } catch (Exception e) {
            jetty.stop();
            if (grpc != null) {
                grpc.stop();
            }
            throw e;
        }
        RetentionSweep sweep = new RetentionSweep(store, clock, config.taskRetention(), jetty.getScheduler());
        this.retention = sweep;
        sweep.start();
        // The deliveries the last run left pending, and the webhooks of tasks still running.
        pushing.start(group);
        return port;
    }

    private static List<JWK> publishedKeys(ServerEdge edge, PushNotifications push) {
        List<JWK> keys = new ArrayList<>(edge.publishedKeys());
        JWK pushKey = push.publicJwk();
        if (keys.stream().noneMatch(k -> k.getKeyID().equals(pushKey.getKeyID()))) {
            keys.add(pushKey);
        }
        return keys;
    }

    /** The webhooks and their deliveries, once started; null before. */
    public PushNotifications push() {
        return push;
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** The port of the gRPC binding's listener, or -1 when gRPC is not served. */
    public int grpcPort() {
        return grpc == null ? -1 : grpc.port();
    }

    /** The port of the separate /metrics listener (METRICS_PORT), or the A2A port when there is none. */
    public int metricsPort() {
        return metricsConnector == null ? port() : metricsConnector.getLocalPort();
    }

    /** What this server counts; the bridge adds its own meters to {@link ServerMetrics#registry()}. */
    public ServerMetrics metrics() {
        return metrics;
    }

    /** Who may read /metrics, known once started: a {@link MetricsAccess.Refused} says why it is not served. */
    public MetricsAccess metricsAccess() {
        MetricsEndpoint m = metricsEndpoint;
        return m == null ? null : m.access();
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    public RequestHandler handler() {
        return handler;
    }

    /**
     * The SSE streams being written now: a gauge of held streams, and what tests check falls back
     * to zero once every stream they opened has ended or been dropped by its client.
     */
    public int openStreams() {
        JsonRpcHandler r = rpc;
        JsonRpcHandler r03 = rpc03;
        RestHandler h = rest;
        return (r == null ? 0 : r.openStreams()) + (r03 == null ? 0 : r03.openStreams())
                + (h == null ? 0 : h.openStreams()) + (grpc == null ? 0 : grpc.openStreams());
    }

    /**
     * Stops listening, abandons the turns still running (their tasks stay as stored, and the next
     * start fails them as interrupted), stops the retention sweep and closes the store. Safe to call
     * more than once.
     */
    public void stop() throws Exception {
        try {
            if (grpc != null) {
                grpc.stop();
            }
            jetty.stop();
        } catch (TimeoutException e) {
            // Streams still open after the stop timeout are closed by the stop itself; nothing to report.
        } finally {
            RequestHandler h = handler;
            if (h != null) {
                h.close();
            }
            turns.shutdownNow();
            PushNotifications pushing = push;
            if (pushing != null) {
                pushing.close();
            }
            RetentionSweep sweep = retention;
            if (sweep != null) {
                sweep.close();
            }
            if (stopped.compareAndSet(false, true)) {
                group.close();
                store.close();
            }
        }
    }

    /**
     * A stop that lets work finish, as a SIGTERM asks: refuses new turns (HTTP 503, which sends a load
     * balancer's next request elsewhere) while reads, cancels and subscriptions are still served, lets
     * the running turns end for {@code grace} at most, ends the open streams cleanly, then
     * {@link #stop()}s. A turn still running after the grace is abandoned as by {@link #stop()}.
     *
     * <p>Why the port stays open until the end: closing Jetty's listening channel while its acceptor
     * (a virtual thread) waits in accept left the socket listening and unanswered, so a new caller
     * waited for a timeout instead of being told at once; a 503 tells it at once.
     *
     * @return whether every running turn ended within the grace
     */
    public boolean drain(Duration grace) throws Exception {
        RequestHandler h = handler;
        boolean ended = true;
        if (h != null) {
            h.drain();
            ended = h.awaitTurnsEnded(grace);
        }
        JsonRpcHandler r = rpc;
        if (r != null) {
            r.endStreams();
        }
        JsonRpcHandler r03 = rpc03;
        if (r03 != null) {
            r03.endStreams();
        }
        RestHandler rh = rest;
        if (rh != null) {
            rh.endStreams();
        }
        if (grpc != null) {
            grpc.endStreams();
        }
        stop();
        return ended;
    }

    /** Blocks until the server stops. */
    public void join() throws InterruptedException {
        jetty.join();
    }

    @Override
    public void close() throws Exception {
        stop();
    }
}
