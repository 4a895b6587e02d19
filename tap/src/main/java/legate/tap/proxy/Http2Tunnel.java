package legate.tap.proxy;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import legate.tap.grpc.GrpcCallView;

/**
 * A client connection that opened with the HTTP/2 preface (a gRPC client, A2A §10), passed through
 * to the agent's gRPC listener byte for byte, both ways, until either side closes. A copy of each
 * piece goes to a {@link GrpcCallView}, which reports each call to the tap's listeners as an
 * exchange of its own, numbered with the HTTP/1.1 ones: the console, the log, the page and the
 * problem checks see it as they see those.
 *
 * <p>Runs on the connection's own thread for the client-to-agent direction and one virtual thread
 * for the other.
 */
final class Http2Tunnel {
    private static final int BUFFER_BYTES = 16 * 1024;

    private final SocketChannel client;
    private final TapContext tap;

    Http2Tunnel(SocketChannel client, TapContext tap) {
        this.client = client;
        this.tap = tap;
    }

    /** Forwards {@code first} (the bytes already read, preface included), then everything after it. */
    void run(byte[] first) throws IOException {
        InetSocketAddress target = tap.grpcTarget();
        PrintStream console = tap.console();
        String from = peer();
        if (target == null) {
            console.println("legate tap: an HTTP/2 (gRPC) connection from " + from + " arrived; the tap forwards gRPC"
                    + " only to TAP_GRPC_TARGET (host:port of the agent's gRPC listener), which is not set: closed");
            return;
        }
        console.println("legate tap: gRPC (HTTP/2) connection from " + from + " forwarded to " + address(target)
                + "; each call is shown as an exchange, credentials masked");
        GrpcCallView view = new GrpcCallView(tap.listener(), tap::nextExchange, tap.headers(), tap.clock(),
                console::println);
        AtomicLong down = new AtomicLong();
        AtomicBoolean agentEnded = new AtomicBoolean();
        long up = first.length;
        try (SocketChannel agent = SocketChannel.open()) {
            try {
                agent.connect(target);
            } catch (IOException e) {
                console.println("legate tap: gRPC: cannot reach " + address(target) + ": " + e.getMessage()
                        + "; the connection from " + from + " is closed");
                return;
            }
            view.fromClient(first, 0, first.length);
            writeAll(agent, ByteBuffer.wrap(first));
            Thread back = Thread.ofVirtual().name("legate-tap-grpc").start(() -> {
                down.set(pipe(agent, client, false, view::fromAgent));
                agentEnded.set(true);
                close(client);
            });
            up += pipe(client, agent, true, view::fromClient);
            boolean byClient = !agentEnded.get();
            close(agent);
            try {
                back.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            view.closed(byClient);
        }
        console.println("legate tap: gRPC connection from " + from + " closed (" + up + " bytes to the agent, "
                + down.get() + " back)");
    }

    private String peer() {
        try {
            return String.valueOf(client.getRemoteAddress()).replaceFirst("^/", "");
        } catch (IOException e) {
            return "a client";
        }
    }

    private static String address(InetSocketAddress target) {
        return target.getHostString() + ":" + target.getPort();
    }

    /** Sees a copy of each piece forwarded, after it was written on. */
    private interface Watch {
        void saw(byte[] bytes, int offset, int length);
    }

    /**
     * Copies until {@code from} ends or either side fails; the bytes copied.
     *
     * @param watchFirst show a piece before it goes on (the client's: a request is shown before the
     *     answer it causes), else after (the agent's: the client never waits for the console)
     */
    private static long pipe(SocketChannel from, SocketChannel to, boolean watchFirst, Watch watch) {
        ByteBuffer buf = ByteBuffer.allocate(BUFFER_BYTES);
        long copied = 0;
        try {
            while (from.read(buf) >= 0) {
                buf.flip();
                int n = buf.remaining();
                copied += n;
                if (watchFirst) {
                    watch.saw(buf.array(), 0, n);
                }
                writeAll(to, buf);
                if (!watchFirst) {
                    watch.saw(buf.array(), 0, n);
                }
                buf.clear();
            }
            // The client (or the agent) finished sending: half-close so the other side sees it too.
            to.shutdownOutput();
        } catch (IOException e) {
            // One side went away: the tunnel ends, the other side is closed by the caller.
        }
        return copied;
    }

    private static void writeAll(SocketChannel to, ByteBuffer buf) throws IOException {
        while (buf.hasRemaining()) {
            to.write(buf);
        }
    }

    private static void close(SocketChannel c) {
        try {
            c.close();
        } catch (IOException e) {
            // already gone
        }
    }
}
