package legate.tap.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

/**
 * A TCP relay that records every byte each way, connection by connection, and forwards it
 * unchanged. It knows nothing of HTTP or of the tap, so what it records on either side of the tap
 * is independent evidence of what crossed the wire.
 */
final class TcpRecorder implements AutoCloseable {
    /** The bytes of one TCP connection: client to server, and server to client. */
    record Connection(byte[] sent, byte[] received) {
    }

    private final ServerSocket server;
    private final int targetPort;
    private final List<Recording> recordings = new ArrayList<>();
    private final List<Socket> sockets = new ArrayList<>();

    TcpRecorder(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("tcp-recorder-accept").start(this::acceptLoop);
    }

    int port() {
        return server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket();
                upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 5_000);
                Recording r = new Recording();
                synchronized (this) {
                    recordings.add(r);
                    sockets.add(client);
                    sockets.add(upstream);
                }
                Thread.ofVirtual().start(() -> pump(client, upstream, r.sent));
                Thread.ofVirtual().start(() -> pump(upstream, client, r.received));
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Records each chunk before forwarding it, so whatever the far side received is already recorded. */
    private static void pump(Socket from, Socket to, ByteArrayOutputStream record) {
        byte[] buf = new byte[16 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buf)) >= 0) {
                synchronized (record) {
                    record.write(buf, 0, n);
                }
                out.write(buf, 0, n);
                out.flush();
            }
            to.shutdownOutput();
        } catch (IOException e) {
            try {
                from.close();
                to.close();
            } catch (IOException ignored) {
                // both ends are going anyway
            }
        }
    }

    /** What was recorded so far, one entry per connection in accept order. */
    synchronized List<Connection> connections() {
        List<Connection> out = new ArrayList<>();
        for (Recording r : recordings) {
            synchronized (r.sent) {
                synchronized (r.received) {
                    out.add(new Connection(r.sent.toByteArray(), r.received.toByteArray()));
                }
            }
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        server.close();
        synchronized (this) {
            for (Socket s : sockets) {
                s.close();
            }
        }
    }

    private static final class Recording {
        final ByteArrayOutputStream sent = new ByteArrayOutputStream();
        final ByteArrayOutputStream received = new ByteArrayOutputStream();
    }
}
