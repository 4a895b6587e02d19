package legate.tap.proxy;

import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLContext;

/**
 * Where the tap listens and what it forwards to.
 *
 * @param host the address to bind; loopback unless told otherwise, because the tap is a second
 *     door into an agent that authenticates nobody
 * @param port the port; 0 picks a free one ({@link TapProxy#start()} returns it)
 * @param target the agent's origin ({@code http://host:port}); request paths pass through unchanged
 * @param maxRequestBytes a request body larger than this is refused with 413 before anything is forwarded
 * @param apiKeyHeader the header an API key travels in, shown masked like Authorization (null: X-API-Key)
 * @param grpcTarget {@code host:port} of the agent's gRPC listener, where a connection that opens with
 *     the HTTP/2 preface (a gRPC client) is passed through, forwarded only ({@link Http2Tunnel}); null: none
 * @param targetTls how the tap dials an {@code https} target: the authorities it trusts and the
 *     client certificate it presents when the agent asks for one (mutual TLS); null: the JDK's
 *     trusted authorities and no certificate
 * @param allowedHosts the Host names (any port) or {@code name:port} the tap answers besides its bind
 *     address, this machine's interface addresses on a wildcard bind, and the loopback names
 *     ({@code TAP_ALLOWED_HOSTS}); {@code *} answers every Host. Any other Host is refused 421 before
 *     anything is forwarded ({@link legate.wire.http.KnownHosts#forBind})
 */
public record TapConfig(String host, int port, URI target, int maxRequestBytes, String apiKeyHeader,
                        InetSocketAddress grpcTarget, SSLContext targetTls, List<String> allowedHosts) {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 41242;
    public static final String DEFAULT_TARGET = "http://127.0.0.1:41241";
    /** Larger than any agent here accepts (1 MiB by default), so the agent, not the tap, refuses first. */
    public static final int DEFAULT_MAX_REQUEST_BYTES = 16 * 1024 * 1024;

    public TapConfig {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("the tap needs an address to bind");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
        target = origin(target);
        if (maxRequestBytes < 1) {
            throw new IllegalArgumentException("maxRequestBytes must be at least 1");
        }
        if (targetTls != null && !"https".equals(target.getScheme())) {
            throw new IllegalArgumentException("a CA certificate or client certificate is for an https target; TARGET_URL is "
                    + target);
        }
        allowedHosts = allowedHosts == null ? List.of() : List.copyOf(allowedHosts);
    }

    public TapConfig(String host, int port, URI target, int maxRequestBytes) {
        this(host, port, target, maxRequestBytes, null, null, null, List.of());
    }

    public TapConfig(String host, int port, URI target, int maxRequestBytes, String apiKeyHeader) {
        this(host, port, target, maxRequestBytes, apiKeyHeader, null, null, List.of());
    }

    /** Loopback, the given port and target, the default request limit. */
    public static TapConfig loopback(int port, URI target) {
        return new TapConfig(DEFAULT_HOST, port, target, DEFAULT_MAX_REQUEST_BYTES);
    }

    /** The same, with the API key travelling in {@code header}. */
    public TapConfig withApiKeyHeader(String header) {
        return new TapConfig(host, port, target, maxRequestBytes, header, grpcTarget, targetTls, allowedHosts);
    }

    /**
     * The same, answering {@code names} besides the bind address and loopback names (TAP_ALLOWED_HOSTS,
     * as {@link legate.wire.http.KnownHosts#parseList} splits it); {@code *} answers every Host.
     */
    public TapConfig withAllowedHosts(List<String> names) {
        return new TapConfig(host, port, target, maxRequestBytes, apiKeyHeader, grpcTarget, targetTls, names);
    }

    /**
     * The same, dialing the https target with {@code tls} (A2A_CA_CERT, A2A_CLIENT_CERT and
     * A2A_CLIENT_KEY, as {@code legate client} reads them); null: the JDK's own.
     *
     * @throws IllegalArgumentException when the target is not https, where the settings would be ignored
     */
    public TapConfig withTargetTls(SSLContext tls) {
        return new TapConfig(host, port, target, maxRequestBytes, apiKeyHeader, grpcTarget, tls, allowedHosts);
    }

    /**
     * The same, passing gRPC connections through to {@code hostPort} ({@code TAP_GRPC_TARGET}, the
     * agent's {@code gRPC:} start-up line); null or blank: none.
     *
     * @throws IllegalArgumentException when it is not {@code host:port}
     */
    public TapConfig withGrpcTarget(String hostPort) {
        if (hostPort == null || hostPort.isBlank()) {
            return new TapConfig(host, port, target, maxRequestBytes, apiKeyHeader, null, targetTls, allowedHosts);
        }
        URI u = URI.create("//" + hostPort.strip());
        if (u.getHost() == null || u.getPort() < 1 || (u.getRawPath() != null && !u.getRawPath().isEmpty())) {
            throw new IllegalArgumentException("TAP_GRPC_TARGET must be host:port of the agent's gRPC listener"
                    + " (its \"gRPC:\" start-up line), got " + hostPort);
        }
        String h = u.getHost().startsWith("[") ? u.getHost().substring(1, u.getHost().length() - 1) : u.getHost();
        return new TapConfig(host, port, target, maxRequestBytes, apiKeyHeader,
                InetSocketAddress.createUnresolved(h, u.getPort()), targetTls, allowedHosts);
    }

    /**
     * The target reduced to {@code scheme://authority}. A path is refused rather than prefixed:
     * the card lives at the origin's {@code /.well-known/agent-card.json}, and PUBLIC_URL's path
     * is the path the agent answers on, so a transparent tap forwards every path unchanged.
     */
    private static URI origin(URI target) {
        if (target == null || !target.isAbsolute() || target.getHost() == null
                || !("http".equalsIgnoreCase(target.getScheme()) || "https".equalsIgnoreCase(target.getScheme()))) {
            throw new IllegalArgumentException("TARGET_URL must be an absolute http(s) URL such as "
                    + DEFAULT_TARGET + ", got " + target);
        }
        String path = target.getRawPath();
        if ((path != null && !path.isEmpty() && !path.equals("/")) || target.getRawQuery() != null) {
            throw new IllegalArgumentException("TARGET_URL names the agent's origin only (" + target.getScheme() + "://"
                    + target.getRawAuthority() + "); request paths pass through the tap unchanged, got " + target);
        }
        return URI.create(target.getScheme().toLowerCase(Locale.ROOT) + "://" + target.getRawAuthority());
    }
}
