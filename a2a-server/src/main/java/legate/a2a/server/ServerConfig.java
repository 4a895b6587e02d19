package legate.a2a.server;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import legate.a2a.server.push.PushSettings;

/**
 * How an {@link AgentServer} listens, and how long it keeps finished tasks.
 *
 * @param host the address to bind; loopback unless told otherwise (without an authentication scheme,
 *             loopback only: the command line refuses anything else unless told it is meant)
 * @param port the port; 0 picks a free one ({@link AgentServer#start()} returns it)
 * @param rpcPath the path JSON-RPC requests are POSTed to (the path of the card's interface URL)
 * @param maxBodyBytes requests larger than this are refused before they are parsed
 * @param cancelWait how long CancelTask waits for the agent to reach CANCELED
 * @param keepAlive how long an open stream may stay silent before it gets an SSE comment
 * @param taskRetention how long a terminal task is kept after its last status change; zero keeps
 *                      every task for as long as the store does (null: {@link #DEFAULT_TASK_RETENTION})
 * @param security who may call and how much each caller may run (null: {@link ServerSecurity#NONE})
 * @param edge TLS, the card signing key and CORS (null: {@link ServerEdge#PLAIN})
 * @param bindings the protocol bindings served, in the card's order of preference (null or empty:
 *                 {@link ProtocolBinding#defaults()}); one this build does not serve is refused
 * @param grpcPort the gRPC binding's own port, on the same host (A2A §10: its interface URL is
 *                 {@code host:port}); 0, the default, picks a free one, so that a second instance started
 *                 with only PORT changed never clashes; the card advertises the port bound
 * @param grpcPublicAddress the {@code host:port} the card advertises for gRPC instead of the public
 *                 URL's host and the port bound: a proxy in front of the gRPC listener (legate tap);
 *                 null for none
 * @param push how push notifications are sent: allowed hosts, retries, the signing key (null:
 *             {@link PushSettings#DEFAULT})
 */
public record ServerConfig(String host, int port, String rpcPath, int maxBodyBytes, Duration cancelWait,
                           Duration keepAlive, Duration taskRetention, ServerSecurity security, ServerEdge edge,
                           List<ProtocolBinding> bindings, int grpcPort, String grpcPublicAddress,
                           PushSettings push) {
    public static final int DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
    /** Under the idle timeouts of common proxies (30-60 s), and under the server's own (120 s). */
    public static final Duration DEFAULT_KEEP_ALIVE = Duration.ofSeconds(15);
    /** TASK_RETENTION's default: a week, long enough to read a result back after a weekend. */
    public static final Duration DEFAULT_TASK_RETENTION = Duration.ofDays(7);

    public ServerConfig {
        if (rpcPath == null || rpcPath.isEmpty()) {
            rpcPath = "/";
        }
        if (!rpcPath.startsWith("/")) {
            rpcPath = "/" + rpcPath;
        }
        if (keepAlive == null || keepAlive.isNegative() || keepAlive.isZero()) {
            keepAlive = DEFAULT_KEEP_ALIVE;
        }
        if (taskRetention == null) {
            taskRetention = DEFAULT_TASK_RETENTION;
        }
        if (taskRetention.isNegative()) {
            throw new IllegalArgumentException("taskRetention must not be negative, got " + taskRetention);
        }
        if (security == null) {
            security = ServerSecurity.NONE;
        }
        if (edge == null) {
            edge = ServerEdge.PLAIN;
        }
        if (bindings == null || bindings.isEmpty()) {
            bindings = ProtocolBinding.defaults();
        }
        bindings = List.copyOf(bindings);
        if (bindings.stream().distinct().count() != bindings.size()) {
            throw new IllegalArgumentException("a binding is listed twice: " + bindings);
        }
        ProtocolBinding.requireServed(bindings);
        if (grpcPort < 0 || grpcPort > 65535) {
            throw new IllegalArgumentException("GRPC_PORT must be a port number (0 for any free one), got " + grpcPort);
        }
        if (grpcPublicAddress != null && grpcPublicAddress.isBlank()) {
            grpcPublicAddress = null;
        }
        if (grpcPublicAddress != null) {
            grpcPublicAddress = grpcPublicAddress.strip();
            URI u = URI.create("//" + grpcPublicAddress);
            if (u.getHost() == null || u.getPort() < 1 || !u.getRawPath().isEmpty()) {
                throw new IllegalArgumentException("GRPC_PUBLIC_ADDRESS must be host:port (A2A §10: a gRPC interface"
                        + " URL is host:port), got " + grpcPublicAddress);
            }
        }
        if (push == null) {
            push = PushSettings.DEFAULT;
        }
    }

    public ServerConfig(String host, int port, String rpcPath, int maxBodyBytes, Duration cancelWait,
                        Duration keepAlive, Duration taskRetention, ServerSecurity security, ServerEdge edge,
                        List<ProtocolBinding> bindings) {
        this(host, port, rpcPath, maxBodyBytes, cancelWait, keepAlive, taskRetention, security, edge, bindings, 0, null, null);
    }

    public ServerConfig(String host, int port, String rpcPath, int maxBodyBytes, Duration cancelWait,
                        Duration keepAlive, Duration taskRetention, ServerSecurity security, ServerEdge edge) {
        this(host, port, rpcPath, maxBodyBytes, cancelWait, keepAlive, taskRetention, security, edge, null);
    }

    public ServerConfig(String host, int port, String rpcPath, int maxBodyBytes, Duration cancelWait,
                        Duration keepAlive, Duration taskRetention) {
        this(host, port, rpcPath, maxBodyBytes, cancelWait, keepAlive, taskRetention, ServerSecurity.NONE, ServerEdge.PLAIN);
    }

    public ServerConfig(String host, int port, String rpcPath, int maxBodyBytes, Duration cancelWait,
                        Duration keepAlive) {
        this(host, port, rpcPath, maxBodyBytes, cancelWait, keepAlive, DEFAULT_TASK_RETENTION);
    }

    public ServerConfig(String host, int port, String rpcPath, int maxBodyBytes, Duration cancelWait) {
        this(host, port, rpcPath, maxBodyBytes, cancelWait, DEFAULT_KEEP_ALIVE);
    }

    /** Loopback, the given port, JSON-RPC at "/", the default limits. */
    public static ServerConfig loopback(int port) {
        return new ServerConfig("127.0.0.1", port, "/", DEFAULT_MAX_BODY_BYTES, Duration.ofSeconds(30));
    }

    /** The same, keeping terminal tasks for {@code retention} (zero: as long as the store does). */
    public ServerConfig withTaskRetention(Duration retention) {
        return new ServerConfig(host, port, rpcPath, maxBodyBytes, cancelWait, keepAlive, retention, security, edge, bindings, grpcPort, grpcPublicAddress, push);
    }

    /** The same, with callers authenticated, an extended card and a per-caller limit as {@code security} says. */
    public ServerConfig withSecurity(ServerSecurity security) {
        return new ServerConfig(host, port, rpcPath, maxBodyBytes, cancelWait, keepAlive, taskRetention, security, edge, bindings, grpcPort, grpcPublicAddress, push);
    }

    /** The same, presented on the network as {@code edge} says (TLS, signed card, CORS). */
    public ServerConfig withEdge(ServerEdge edge) {
        return new ServerConfig(host, port, rpcPath, maxBodyBytes, cancelWait, keepAlive, taskRetention, security, edge, bindings, grpcPort, grpcPublicAddress, push);
    }

    /** The same, serving {@code served} in that order of preference (empty: the defaults). */
    public ServerConfig withBindings(List<ProtocolBinding> served) {
        return new ServerConfig(host, port, rpcPath, maxBodyBytes, cancelWait, keepAlive, taskRetention, security, edge, served, grpcPort, grpcPublicAddress, push);
    }

    /** The same, serving gRPC on {@code port} (0: any free port). */
    public ServerConfig withGrpcPort(int port) {
        return new ServerConfig(host, this.port, rpcPath, maxBodyBytes, cancelWait, keepAlive, taskRetention, security,
                edge, bindings, port, grpcPublicAddress, push);
    }

    /** The same, advertising gRPC at {@code address} ({@code host:port}; null or blank: the public URL's host, the port bound). */
    public ServerConfig withGrpcPublicAddress(String address) {
        return new ServerConfig(host, port, rpcPath, maxBodyBytes, cancelWait, keepAlive, taskRetention, security,
                edge, bindings, grpcPort, address, push);
    }

    /** The same, sending push notifications as {@code settings} say. */
    public ServerConfig withPush(PushSettings settings) {
        return new ServerConfig(host, port, rpcPath, maxBodyBytes, cancelWait, keepAlive, taskRetention, security, edge,
                bindings, grpcPort, grpcPublicAddress, settings);
    }

    /** Whether {@code binding} is among those served. */
    public boolean serves(ProtocolBinding binding) {
        return bindings.contains(binding);
    }
}
