package legate.tap;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.http.HttpVersion;

/**
 * One HTTP/1.1 connection from the tap to its target, used by one exchange at a time: it writes a
 * request head and body, then reads the response with Jetty's own {@link HttpParser}, handing the
 * body on chunk by chunk as it arrives. Blocking, on the exchange's own virtual thread.
 *
 * <p>After a response whose body was read to its end, the connection can carry the next request
 * ({@link #reusable()}); one left mid-body is closed, which is how the tap hangs up on the agent.
 */
final class UpstreamConnection implements AutoCloseable {
    private static final int BUFFER_BYTES = 16 * 1024;
    private static final int MAX_HEAD_BYTES = 64 * 1024;

    private final SocketChannel socket;
    private final ReadableByteChannel in;
    private final WritableByteChannel out;
    private final boolean probeable;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(BUFFER_BYTES).flip();
    private final ByteBuffer writeBuffer = ByteBuffer.allocateDirect(BUFFER_BYTES);
    private final Parsed parsed = new Parsed();
    private final HttpParser parser = new HttpParser(parsed, MAX_HEAD_BYTES);
    private final Body body = new Body();
    private long idleSince;

    /**
     * @param in, out the byte streams of the connection: the socket itself, or TLS over it
     * @param probeable whether {@link #stillOpen()} may read the socket directly (not under TLS)
     */
    UpstreamConnection(SocketChannel socket, ReadableByteChannel in, WritableByteChannel out, boolean probeable) {
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.probeable = probeable;
        // PEER (the agent): header values reach the client as the agent wrote them, letter case included.
        parser.setHeaderCacheCaseSensitive(true);
    }

    /** Sends one request: its head and body leave in as few writes as the buffer allows. */
    void send(byte[] head, byte[] content) throws IOException {
        writeBuffer.clear();
        put(head);
        put(content);
        writeBuffer.flip();
        while (writeBuffer.hasRemaining()) {
            out.write(writeBuffer);
        }
    }

    private void put(byte[] bytes) throws IOException {
        int off = 0;
        while (off < bytes.length) {
            if (!writeBuffer.hasRemaining()) {
                writeBuffer.flip();
                while (writeBuffer.hasRemaining()) {
                    out.write(writeBuffer);
                }
                writeBuffer.clear();
            }
            int n = Math.min(writeBuffer.remaining(), bytes.length - off);
            writeBuffer.put(bytes, off, n);
            off += n;
        }
    }

    /**
     * Reads the next final response head (interim 1xx responses are passed over).
     *
     * @param headRequest whether the request was HEAD, whose response has no body whatever it says
     * @return false when the connection ended before one byte of a response: a kept-alive
     *     connection the target had closed meanwhile
     */
    boolean readHead(boolean headRequest) throws IOException {
        parsed.reset();
        parser.reset();
        parser.setHeadResponse(headRequest);
        boolean any = false;
        while (true) {
            if (!parse()) {
                int n = fill();
                if (n < 0 && !any) {
                    return false;
                }
                any = true;
            }
            if (parsed.headComplete) {
                if (parsed.status >= 200 || parsed.status == 101) {
                    return true;
                }
                // PROTOCOL (RFC 9110 §15.2): a 1xx is interim; the final response follows on the same connection.
                parsed.reset();
                parser.reset();
                parser.setHeadResponse(headRequest);
            }
        }
    }

    /** Lets the parser take what is buffered; false when it needs more bytes to report anything. */
    private boolean parse() throws IOException {
        boolean reported = parser.parseNext(readBuffer);
        parsed.check();
        return reported;
    }

    int status() {
        return parsed.status;
    }

    HttpFields headers() {
        return parsed.fields;
    }

    /** The body of the response whose head was just read: decoded from its framing, ending at its end. */
    InputStream body() {
        return body;
    }

    /** Whether the response was read to its end and the connection can carry another request. */
    boolean reusable() {
        return parsed.messageComplete && !parsed.close && !readBuffer.hasRemaining() && !parser.isAtEOF()
                && socket.isOpen();
    }

    void idleFrom(long nanos) {
        idleSince = nanos;
    }

    long idleSince() {
        return idleSince;
    }

    /**
     * Whether an idle connection is still open: the target may have closed it while it waited.
     * A look that never blocks; under TLS it cannot look without consuming bytes, so it trusts the idle time.
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
            readBuffer.clear();
            int n = socket.read(readBuffer);
            readBuffer.flip();
            socket.configureBlocking(true);
            // -1: the target closed it; > 0: bytes nobody asked for, so the connection is out of step.
            return n == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Reads more bytes into the buffer, blocking until some arrive; -1 (and the parser told) at the end. */
    private int fill() throws IOException {
        if (parser.isAtEOF()) {
            throw new IOException("the agent closed the connection in the middle of a response");
        }
        readBuffer.compact();
        int n;
        try {
            n = in.read(readBuffer);
        } finally {
            readBuffer.flip();
        }
        if (n < 0) {
            parser.atEOF();
        }
        return n;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing is all that was wanted
        }
    }

    /** The response body as a stream; each read returns what has arrived, never waiting to fill the array. */
    private final class Body extends InputStream {
        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            while (true) {
                ByteBuffer content = parsed.content;
                if (content != null && content.hasRemaining()) {
                    int n = Math.min(len, content.remaining());
                    content.get(b, off, n);
                    return n;
                }
                parsed.content = null;
                if (parsed.messageComplete) {
                    return -1;
                }
                if (!parse()) {
                    fill();
                }
            }
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n;
            do {
                n = read(one, 0, 1);
            } while (n == 0);
            return n < 0 ? -1 : one[0] & 0xff;
        }
    }

    /** What the parser reported of the response being read. */
    private static final class Parsed implements HttpParser.ResponseHandler {
        int status;
        HttpFields.Mutable fields;
        boolean close;
        boolean headComplete;
        boolean messageComplete;
        ByteBuffer content;
        String failure;

        void reset() {
            status = 0;
            fields = HttpFields.build();
            close = false;
            headComplete = false;
            messageComplete = false;
            content = null;
            failure = null;
        }

        void check() throws IOException {
            if (failure != null) {
                throw new IOException(failure);
            }
        }

        @Override
        public void startResponse(HttpVersion version, int status, String reason) {
            this.status = status;
            // PROTOCOL (RFC 9112 §9.3): an HTTP/1.0 response ends its connection unless it says keep-alive.
            this.close = version != HttpVersion.HTTP_1_1;
        }

        @Override
        public void parsedHeader(HttpField field) {
            fields.add(field);
            if (field.getHeader() == HttpHeader.CONNECTION) {
                if (field.contains(HttpHeaderValue.CLOSE.asString())) {
                    close = true;
                } else if (field.contains(HttpHeaderValue.KEEP_ALIVE.asString())) {
                    close = false;
                }
            }
        }

        @Override
        public boolean headerComplete() {
            headComplete = true;
            if (status == 101) {
                close = true;
            }
            return true;
        }

        @Override
        public boolean content(ByteBuffer item) {
            content = item;
            return true;
        }

        @Override
        public boolean contentComplete() {
            return false;
        }

        @Override
        public boolean messageComplete() {
            messageComplete = true;
            return true;
        }

        @Override
        public void earlyEOF() {
            failure = "the agent closed the connection before the end of the response";
        }

        @Override
        public void badMessage(HttpException failure) {
            this.failure = "the agent's response is not valid HTTP/1.1: " + failure.getReason();
        }
    }
}
