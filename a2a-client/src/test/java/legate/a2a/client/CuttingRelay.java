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
import java.util.function.Supplier;

/**
 * A TCP relay on loopback in front of a real agent that cuts the first stream it carries once
 * the agent has sent a given number of frames through it, as a proxy or a closed laptop lid would:
 * both sockets closed, nothing more relayed. Every later connection is relayed whole. What a frame
 * is depends on the binding: an SSE frame ({@link #sse}), or an HTTP/2 DATA frame, which holds one
 * gRPC message of a stream ({@link #grpc}).
 */
final class CuttingRelay implements AutoCloseable {
    private static final byte[] EVENT_STREAM = "text/event-stream".getBytes(StandardCharsets.US_ASCII);

    /** Reads the agent's bytes one at a time; true when a byte ends a frame that counts. */
    private interface Frames {
        boolean ends(int b);
    }

    private final ServerSocket listener;
    private final int framesBeforeCut;
    private final Supplier<Frames> frames;
    private volatile int agentPort;
    private final AtomicBoolean cutDone = new AtomicBoolean();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    /** Cuts after {@code framesBeforeCut} SSE frames. Binds now, so the agent's card can name this port before the agent is started. */
    static CuttingRelay sse(int framesBeforeCut) throws IOException {
        return new CuttingRelay(framesBeforeCut, SseFrames::new);
    }

    /** Cuts after {@code framesBeforeCut} HTTP/2 DATA frames from the agent: gRPC messages (RFC 9113 §4.1, §6.1). */
    static CuttingRelay grpc(int framesBeforeCut) throws IOException {
        return new CuttingRelay(framesBeforeCut, Http2DataFrames::new);
    }

    private CuttingRelay(int framesBeforeCut, Supplier<Frames> frames) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.framesBeforeCut = framesBeforeCut;
        this.frames = frames;
    }

    /** Frames of an SSE response: after the head names text/event-stream, each blank line ends one. */
    private static final class SseFrames implements Frames {
        private boolean stream;
        private int typeMatched;
        private int newlines;

        @Override
        public boolean ends(int b) {
            if (!stream) {
                typeMatched = b == EVENT_STREAM[typeMatched] ? typeMatched + 1 : (b == EVENT_STREAM[0] ? 1 : 0);
                stream = typeMatched == EVENT_STREAM.length;
                return false;
            }
            // An SSE frame ends with a blank line; the head's CRLFs and the chunk lines never hold two LFs in a row.
            newlines = b == '\n' ? newlines + 1 : 0;
            if (newlines == 2) {
                newlines = 0;
                return true;
            }
            return false;
        }
    }

    /** The server's side of an HTTP/2 connection: a 9-octet header (length, type, flags, stream), then the payload. */
    private static final class Http2DataFrames implements Frames {
        private final int[] head = new int[9];
        private int headRead;
        private int payloadLeft;
        private boolean data;

        @Override
        public boolean ends(int b) {
            if (headRead < head.length) {
                head[headRead++] = b;
                if (headRead == head.length) {
                    payloadLeft = head[0] << 16 | head[1] << 8 | head[2];
                    data = head[3] == 0 && payloadLeft > 0;
                    return nextFrame();
                }
                return false;
            }
            payloadLeft--;
            return nextFrame();
        }

        private boolean nextFrame() {
            if (payloadLeft > 0) {
                return false;
            }
            headRead = 0;
            boolean ended = data;
            data = false;
            return ended;
        }
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
        Frames counter = frames.get();
        int seen = 0;
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int b;
            while ((b = in.read()) >= 0) {
                out.write(b);
                if (!watching) {
                    continue;
                }
                out.flush();
                if (counter.ends(b) && ++seen == framesBeforeCut && cutDone.compareAndSet(false, true)) {
                    return;
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
