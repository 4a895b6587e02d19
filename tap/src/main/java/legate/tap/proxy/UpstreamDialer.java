package legate.tap.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * Opens the tap's connections to its one target, and knows every one still open so that stopping
 * the tap can close them all: exchanges still reading from the target end then.
 */
final class UpstreamDialer implements AutoCloseable {
    private final String host;
    private final int port;
    private final boolean tls;
    /** The TLS context of an https target; null: the JDK's default, made when first dialed. */
    private final SSLContext tlsContext;
    private final int connectTimeoutMs;
    private final Set<UpstreamConnection> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /**
     * @param target the origin, {@code http://host[:port]} or {@code https://host[:port]}
     * @param tlsContext for an https target: the authorities trusted and the client certificate
     *     presented; null for the JDK's default
     */
    UpstreamDialer(URI target, SSLContext tlsContext, Duration connectTimeout) {
        this.host = target.getHost();
        this.tlsContext = tlsContext;
        this.tls = target.getScheme().equalsIgnoreCase("https");
        this.port = target.getPort() >= 0 ? target.getPort() : tls ? 443 : 80;
        this.connectTimeoutMs = Math.toIntExact(connectTimeout.toMillis());
    }

    /** Whether an idle connection has to be trusted rather than looked at (TLS cannot be peeked into). */
    boolean tls() {
        return tls;
    }

    /** A new connection to the target. */
    UpstreamConnection connect() throws IOException {
        if (closed) {
            throw new IOException("the tap is stopping");
        }
        SocketChannel socket = SocketChannel.open();
        try {
            socket.socket().connect(new InetSocketAddress(host, port), connectTimeoutMs);
            socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
            UpstreamConnection c = tls ? overTls(socket) : new UpstreamConnection(socket, socket, socket, true);
            open.add(c);
            if (closed) {
                discard(c);
                throw new IOException("the tap is stopping");
            }
            return c;
        } catch (SocketTimeoutException e) {
            socket.close();
            throw new SocketTimeoutException("connect timed out");
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private UpstreamConnection overTls(SocketChannel socket) throws IOException {
        SSLSocket s;
        try {
            SSLContext context = tlsContext != null ? tlsContext : SSLContext.getDefault();
            s = (SSLSocket) context.getSocketFactory().createSocket(socket.socket(), host, port, true);
        } catch (NoSuchAlgorithmException e) {
            throw new IOException("no TLS available in this JVM", e);
        }
        SSLParameters p = s.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        s.setSSLParameters(p);
        s.startHandshake();
        return new UpstreamConnection(socket, Channels.newChannel(s.getInputStream()),
                Channels.newChannel(s.getOutputStream()), false);
    }

    /** Closes a connection and forgets it. */
    void discard(UpstreamConnection c) {
        open.remove(c);
        c.close();
    }

    /** Closes every connection, idle or in use, and refuses new ones. */
    @Override
    public void close() {
        closed = true;
        for (UpstreamConnection c : open) {
            discard(c);
        }
    }
}
