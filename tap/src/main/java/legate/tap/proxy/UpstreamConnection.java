package legate.tap.proxy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import legate.tap.http.BodyInput;
import legate.tap.http.Framing;
import legate.tap.http.HeadParser;
import legate.tap.http.MalformedMessage;
import legate.tap.http.MalformedMessage.Fault;
import legate.tap.http.ResponseHead;
import legate.tap.http.Sender;
import legate.tap.http.WireInput;
import legate.tap.http.WireOutput;

/**
 * One HTTP/1.1 connection from the tap to its target, carrying one exchange at a time: it writes a
 * request, reads the response head with {@link HeadParser}, and hands the body on as it arrives
 * ({@link BodyInput}). Blocking, on the thread of the client connection it serves.
 *
 * <p>After a response whose body was read to its end, the connection can carry the next request
 * ({@link #reusable()}); one left mid-body is closed, which is how the tap hangs up on the agent.
 */
final class UpstreamConnection implements AutoCloseable {
    private static final int BUFFER_BYTES = 16 * 1024;
    private static final int MAX_HEAD_BYTES = 64 * 1024;

    private final SocketChannel socket;
    private final boolean probeable;
    private final WireInput in;
    private final HeadParser responses;
    private final WireOutput out;
    private ResponseHead head;
    private BodyInput body;
    private boolean closeAfter;

    /**
     * @param in, out the byte streams of the connection: the socket itself, or TLS over it
     * @param probeable whether {@link #stillOpen()} may read the socket directly (not under TLS)
     */
    UpstreamConnection(SocketChannel socket, ReadableByteChannel in, WritableByteChannel out, boolean probeable) {
        this.socket = socket;
        this.probeable = probeable;
        this.in = new WireInput(in, Sender.SERVER, BUFFER_BYTES, MAX_HEAD_BYTES);
        this.responses = new HeadParser(this.in);
        this.out = new WireOutput(out, BUFFER_BYTES);
    }

    /** Sends one request: its head and body leave in as few writes as the buffer allows. */
    void send(ForwardedRequest request) throws IOException {
        out.write(request.head());
        out.write(request.body());
        out.flush();
    }

    /**
     * Reads the next final response head (interim 1xx responses are passed over).
     *
     * @param headRequest whether the request was HEAD, whose response has no body whatever it says
     * @return false when the connection ended before one byte of a response: a kept-alive
     *     connection the target had closed meanwhile
     * @throws MalformedMessage when the response is not HTTP/1.1 the tap can relay
     */
    boolean readHead(boolean headRequest) throws IOException {
        while (true) {
            ResponseHead h = responses.response();
            if (h == null) {
                return false;
            }
            if (h.status() == 101) {
                // PROTOCOL (RFC 9110 §15.2.2): a server switches protocols only when the request asked
                // to, and the tap forwards no Upgrade header (it is hop-by-hop), so this one never did.
                throw new MalformedMessage(Sender.SERVER, Fault.INVALID,
                        "101 Switching Protocols, which the tap never asks for");
            }
            if (h.status() >= 200) {
                Framing framing = Framing.ofResponse(h, headRequest);
                head = h;
                body = new BodyInput(in, framing);
                closeAfter = h.closesConnection() || framing instanceof Framing.UntilClose;
                return true;
            }
            // PROTOCOL (RFC 9110 §15.2): a 1xx is interim; the final response follows on the same connection.
        }
    }

    ResponseHead head() {
        return head;
    }

    /** The body of the response whose head was just read: freed of its framing, ending at its end. */
    BodyInput body() {
        return body;
    }

    /** Whether the response was read to its end and the connection can carry another request. */
    boolean reusable() {
        try {
            return body != null && body.complete() && !closeAfter && in.buffered() == 0 && !in.ended()
                    && socket.isOpen();
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Whether an idle connection is still open: the target may have closed it while it waited.
     * A look that never blocks; under TLS it cannot look without consuming bytes, so it trusts it.
     */
    boolean stillOpen() {
        if (!socket.isOpen()) {
            return false;
        }
        if (!probeable) {
            return true;
        }
        try {
            socket.configureBlocking(false);
            int n = socket.read(ByteBuffer.allocate(1));
            socket.configureBlocking(true);
            // -1: the target closed it; > 0: bytes nobody asked for, so the connection is out of step.
            return n == 0;
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing is all that was wanted
        }
    }
}
