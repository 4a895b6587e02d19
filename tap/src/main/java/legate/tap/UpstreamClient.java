package legate.tap;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Deque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * The tap's HTTP/1.1 client to its one target: blocking, on the exchange's own virtual thread, over
 * a pool of kept-alive connections. Share one per tap, because the pool is what makes it cheap.
 *
 * <p>It sends the request bytes {@link ForwardedRequest} built and adds nothing: no User-Agent,
 * no Via, no upgrade offer. An exchange holds its connection until its response body has been read
 * to the end ({@link #release}); a connection given back mid-body is closed, so the target sees the
 * tap hang up.
 */
final class UpstreamClient implements AutoCloseable {
    private static final int MAX_IDLE_CONNECTIONS = 64;
    // PEER (any TLS server): an idle TLS connection cannot be checked without reading into the TLS
    // stream, so it is kept for less than the shortest common keep-alive timeout (Node.js: 5 s).
    private static final long TLS_MAX_IDLE_NANOS = Duration.ofSeconds(2).toNanos();

    private final String host;
    private final int port;
    private final boolean tls;
    private final int connectTimeoutMs;
    private final Deque<UpstreamConnection> idle = new ConcurrentLinkedDeque<>();
    private final Set<UpstreamConnection> open = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** @param target the origin, {@code http://host[:port]} or {@code https://host[:port]} */
    UpstreamClient(URI target, Duration connectTimeout) {
        this.host = target.getHost();
        this.tls = target.getScheme().equalsIgnoreCase("https");
        this.port = target.getPort() >= 0 ? target.getPort() : tls ? 443 : 80;
        this.connectTimeoutMs = Math.toIntExact(connectTimeout.toMillis());
    }

    /**
     * Sends the request and reads the response head. The caller reads the body from the returned
     * connection and then gives it back with {@link #release}.
     *
     * @throws IOException when the target cannot be reached or breaks off before a response head
     */
    UpstreamConnection exchange(ForwardedRequest request) throws IOException {
        while (true) {
            UpstreamConnection c = pooled();
            boolean reused = c != null;
            if (c == null) {
                c = connect();
            }
            IOException failure;
            try {
                c.send(request.head(), request.body());
                if (c.readHead(request.isHead())) {
                    return c;
                }
                failure = new IOException("the agent closed the connection without answering");
            } catch (IOException e) {
                failure = e;
            }
            discard(c);
            // PROTOCOL (RFC 9112 §9.3.1.1): a request that met a kept-alive connection the target had
            // just closed is sent again on a new one only when its method is idempotent; any other
            // might have been applied, so the client gets the failure instead.
            if (!reused || !request.idempotent()) {
                throw failure;
            }
        }
    }

    /** Gives the connection back: kept for the next exchange when its response ended cleanly, else closed. */
    void release(UpstreamConnection c) {
        if (!closed && c.reusable() && idle.size() < MAX_IDLE_CONNECTIONS) {
            c.idleFrom(System.nanoTime());
            idle.push(c);
            if (closed && idle.remove(c)) {
                discard(c);
            }
            return;
        }
        discard(c);
    }

    private UpstreamConnection pooled() {
        UpstreamConnection c;
        while ((c = idle.pollFirst()) != null) {
            boolean fresh = !tls || System.nanoTime() - c.idleSince() < TLS_MAX_IDLE_NANOS;
            if (fresh && c.stillOpen()) {
                return c;
            }
            discard(c);
        }
        return null;
    }

    private UpstreamConnection connect() throws IOException {
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
            s = (SSLSocket) SSLContext.getDefault().getSocketFactory().createSocket(socket.socket(), host, port, true);
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

    private void discard(UpstreamConnection c) {
        open.remove(c);
        c.close();
    }

    /** Closes every connection, idle or in use: exchanges still reading from the target end now. */
    @Override
    public void close() {
        closed = true;
        idle.clear();
        for (UpstreamConnection c : open) {
            discard(c);
        }
    }
}
