package legate.a2a.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP relay on loopback in front of a real agent that cuts the first SSE stream it carries once
 * the agent has sent a given number of frames through it, as a proxy or a closed laptop lid would:
 * both sockets closed, nothing more relayed. Every later connection is relayed whole.
 */
final class CuttingRelay implements AutoCloseable {
    private static final byte[] EVENT_STREAM = "text/event-stream".getBytes(StandardCharsets.US_ASCII);

    private final ServerSocket listener;
    private final int framesBeforeCut;
    private volatile int agentPort;
    private final AtomicBoolean cutDone = new AtomicBoolean();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    /** Binds now, so the agent's card can name this port before the agent is started. */
    CuttingRelay(int framesBeforeCut) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.framesBeforeCut = framesBeforeCut;
    }

    /** Starts relaying to the agent on {@code port}. */
    void forwardTo(int port) {
        this.agentPort = port;
        Thread.ofVirtual().name("relay-accept").start(this::accept);
    }

    int port() {
        return listener.getLocalPort();
    }

    /** True once a stream has been cut. */
    boolean cut() {
        return cutDone.get();
    }

    private void accept() {
        try {
            while (true) {
                Socket client = listener.accept();
                Socket agent = new Socket(InetAddress.getLoopbackAddress(), agentPort);
                sockets.add(client);
                sockets.add(agent);
                Thread.ofVirtual().start(() -> pump(client, agent, false));
                Thread.ofVirtual().start(() -> pump(agent, client, true));
            }
        } catch (IOException e) {
            // closed
        }
    }

    private void pump(Socket from, Socket to, boolean fromAgent) {
        // Toward the client one byte at a time and flushed, so the cut falls exactly after a frame.
        boolean watching = fromAgent && !cutDone.get();
        boolean stream = false;
        int typeMatched = 0;
        int newlines = 0;
        int frames = 0;
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int b;
            while ((b = in.read()) >= 0) {
                out.write(b);
                if (!watching) {
                    continue;
                }
                out.flush();
                if (!stream) {
                    typeMatched = b == EVENT_STREAM[typeMatched] ? typeMatched + 1 : (b == EVENT_STREAM[0] ? 1 : 0);
                    stream = typeMatched == EVENT_STREAM.length;
                    continue;
                }
                // An SSE frame ends with a blank line; the head's CRLFs and the chunk lines never hold two LFs in a row.
                newlines = b == '\n' ? newlines + 1 : 0;
                if (newlines == 2) {
                    newlines = 0;
                    if (++frames == framesBeforeCut && cutDone.compareAndSet(false, true)) {
                        return;
                    }
                }
            }
        } catch (IOException e) {
            // one side went away; the other pump ends too
        } finally {
            close(from);
            close(to);
        }
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            close(s);
        }
    }
}
