package legate.tap.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;

/**
 * The tap's listening socket: accepts each client connection and gives it a thread of its own
 * ({@link ClientConnection}), and closes connections that sit idle between requests for longer than
 * the idle timeout. Knows every open connection, so stopping closes them all.
 */
final class ClientAcceptor implements AutoCloseable {
    private static final int BACKLOG = 1024;

    private final ServerSocketChannel server;
    private final ThreadFactory threads;
    private final long idleTimeoutNanos;
    private final Map<ClientConnection, Thread> open = new ConcurrentHashMap<>();
    private final Thread reaper;
    private volatile boolean closed;

    /**
     * Binds at once, so the port is known before anything is served.
     *
     * @param threads makes the thread that serves one connection
     */
    ClientAcceptor(String host, int port, ThreadFactory threads, Duration idleTimeout) throws IOException {
        this.server = ServerSocketChannel.open();
        this.threads = threads;
        this.idleTimeoutNanos = idleTimeout.toNanos();
        try {
            // A restarted tap can bind the port its predecessor's connections still linger on.
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            server.bind(new InetSocketAddress(host, port), BACKLOG);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
        this.reaper = Thread.ofPlatform().name("legate-tap-idle").daemon().unstarted(this::reap);
    }

    int port() {
        return server.socket().getLocalPort();
    }

    /** Starts accepting; each accepted socket becomes the connection {@code connections} makes of it. */
    void start(Function<SocketChannel, ClientConnection> connections) {
        Thread.ofPlatform().name("legate-tap-accept").daemon().start(() -> accept(connections));
        reaper.start();
    }

    private void accept(Function<SocketChannel, ClientConnection> connections) {
        while (!closed) {
            SocketChannel socket;
            try {
                socket = server.accept();
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                // Out of descriptors, say: the connection waiting in the backlog is tried again.
                pause();
                continue;
            }
            try {
                // Each piece of a stream is one write; Nagle's algorithm would hold small ones back.
                socket.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ClientConnection c = connections.apply(socket);
                Thread t = threads.newThread(() -> serve(c));
                open.put(c, t);
                if (closed) {
                    c.close();
                }
                t.start();
            } catch (IOException | RuntimeException | OutOfMemoryError e) {
                close(socket);
            }
        }
    }

    /** A connection's thread: serves it to its end, then forgets it. */
    private void serve(ClientConnection c) {
        try {
            c.run();
        } finally {
            open.remove(c);
        }
    }

    private void reap() {
        long period = Math.max(Duration.ofMillis(10).toNanos(), Math.min(idleTimeoutNanos / 4,
                Duration.ofSeconds(1).toNanos()));
        while (!closed) {
            try {
                Thread.sleep(Duration.ofNanos(period));
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            for (ClientConnection c : open.keySet()) {
                if (c.expired(now, idleTimeoutNanos)) {
                    c.close();
                }
            }
        }
    }

    /** Stops accepting. Open connections go on until {@link #close()}. */
    void stopAccepting() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            // nothing more to accept either way
        }
        reaper.interrupt();
    }

    /** Closes every open connection and waits, a bounded time, for their threads to end. */
    @Override
    public void close() throws InterruptedException {
        stopAccepting();
        for (ClientConnection c : open.keySet()) {
            c.close();
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        for (Thread t : open.values()) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                t.join(Duration.ofNanos(left));
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void close(SocketChannel socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // it was never served
        }
    }
}
