package legate.tap.proxy;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import legate.tap.http.BodyInput;
import legate.tap.http.BodyOutput;
import legate.tap.http.Field;
import legate.tap.http.Framing;
import legate.tap.http.HeadParser;
import legate.tap.http.HeadWriter;
import legate.tap.http.HopByHopFields;
import legate.tap.http.Http2Preface;
import legate.tap.http.MalformedMessage;
import legate.tap.http.RequestHead;
import legate.tap.http.ResponseHead;
import legate.tap.http.Sender;
import legate.tap.http.WireInput;
import legate.tap.http.WireOutput;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Refused;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;
import legate.tap.show.ShownHeaders;

/**
 * One client's connection to the tap, served by a thread of its own, exchange after exchange: it
 * reads a request whole (it is shown before it is forwarded), forwards it on its own upstream
 * connection ({@link PairedUpstream}), and relays the response as it arrives, reporting each step to
 * the listeners. Blocking I/O on both sides; nothing is handed to another thread but the events.
 *
 * <p>The connection stays open for the next request as long as HTTP/1.1 allows (RFC 9112 §9.3):
 * not after "Connection: close" or an HTTP/1.0 request, not after a message the tap could not read
 * to its end, not after a response that was broken off.
 */
final class ClientConnection implements Runnable, AutoCloseable {
    /** How much of a response body is kept for display; every byte is relayed regardless. */
    static final int MAX_SHOWN_BODY_BYTES = 1024 * 1024;
    private static final int BUFFER_BYTES = 16 * 1024;
    // A request head (request line and headers) larger than this is refused with 431.
    static final int MAX_HEAD_BYTES = 64 * 1024;
    // How long a refused client may go on sending before the tap closes on it anyway.
    private static final long LINGER_NANOS = Duration.ofSeconds(2).toNanos();

    private final SocketChannel socket;
    private final WireInput in;
    private final HeadParser requests;
    private final WireOutput out;
    private final HeadWriter heads;
    private final PairedUpstream upstream;
    private final TapContext tap;
    /** While the connection waits for a request: since when, for the idle timeout. 0 while an exchange runs. */
    private volatile long waitingSince;
    private volatile boolean lingering;

    ClientConnection(SocketChannel socket, UpstreamDialer dialer, TapContext tap) {
        this.socket = socket;
        this.in = new WireInput(socket, Sender.CLIENT, BUFFER_BYTES, MAX_HEAD_BYTES);
        this.requests = new HeadParser(in);
        this.out = new WireOutput(socket, BUFFER_BYTES);
        this.heads = new HeadWriter(out);
        this.upstream = new PairedUpstream(dialer);
        this.tap = tap;
    }

    @Override
    public void run() {
        try {
            if (Http2Preface.opens(in)) {
                // PROTOCOL (RFC 9113 §3.4): an HTTP/2 client with prior knowledge, gRPC's clear-text
                // opening. Forwarded as it is, never parsed as HTTP/1.1; it never idles out either.
                waitingSince = 0;
                new Http2Tunnel(socket, tap).run(Http2Preface.takeBuffered(in));
                return;
            }
            while (serveOne()) {
                // the next exchange on the same connection
            }
        } catch (IOException e) {
            // The client went away, or the tap is stopping: either way this connection is done.
        } catch (RuntimeException e) {
            // A fault of the tap's own: this connection ends, the others go on.
            System.err.println("legate tap: a connection failed: " + e);
            e.printStackTrace();
        } finally {
            upstream.close();
            close();
        }
    }

    /**
     * Whether the connection has waited for (the rest of) a request longer than it may, or, after
     * a refusal, for the client to finish sending. An exchange in progress never expires: a turn
     * may keep the agent busy for minutes, and a stream's pace is the agent's.
     */
    boolean expired(long now, long idleTimeoutNanos) {
        long since = waitingSince;
        if (since == 0) {
            return false;
        }
        return now - Math.max(since, in.lastRead()) > (lingering ? LINGER_NANOS : idleTimeoutNanos);
    }

    /** Serves one exchange; returns whether the connection stays open for another. */
    private boolean serveOne() throws IOException {
        waitingSince = System.nanoTime();
        RequestHead head;
        try {
            head = requests.request();
        } catch (MalformedMessage e) {
            refuse(tap.nextExchange(), refusing(e), null, true);
            return false;
        }
        if (head == null) {
            return false;
        }
        long n = tap.nextExchange();
        Instant start = tap.clock().instant();
        Framing framing;
        byte[] body;
        try {
            framing = Framing.ofRequest(head);
            body = readBody(head, framing);
        } catch (MalformedMessage e) {
            refuse(n, refusing(e), null, true);
            return false;
        }
        waitingSince = 0;
        boolean close = head.closesConnection();
        String host = head.first("Host");
        // DEFECT (issue 30): the tap writes the agent's name as Host, so a DNS-rebinding page that
        // reached a loopback tap under its own name got past the agent's Host check. An HTTP/1.0
        // request without Host passes: no browser sends one.
        if (host != null && !tap.hosts().allows(host)) {
            refuse(n, ErrorReply.misdirected(host), body, close);
            return !close;
        }
        tap.listener().on(new ExchangeEvent.Request(n, start, head.method(), head.target(), head.version(),
                shown(head.fields(), tap.headers()), body));
        ForwardedRequest request = ForwardedRequest.of(tap.target(), head, framing, body);
        UpstreamConnection answer;
        try {
            answer = upstream.exchange(request);
        } catch (MalformedMessage e) {
            refuse(n, refusing(e), body, close);
            return !close;
        } catch (IOException e) {
            refuse(n, ErrorReply.unreachable(tap.target(), e), body, close);
            return !close;
        }
        try {
            return relay(n, start, head, answer, close) && !close;
        } finally {
            // Kept for the next exchange when the body was read to its end; otherwise closed, so
            // the agent's stream for a client that went away ends too.
            upstream.release(answer);
        }
    }

    /**
     * Reads the request body whole, within the tap's limit.
     *
     * @throws MalformedMessage ({@code BODY_TOO_LARGE}) before reading a byte when the declared length
     *     is over the limit, or as soon as a chunked body passes it
     */
    private byte[] readBody(RequestHead head, Framing framing) throws IOException {
        if (framing instanceof Framing.None) {
            return new byte[0];
        }
        int max = tap.maxRequestBytes();
        BodyInput body = new BodyInput(in, framing);
        // PROTOCOL (RFC 9110 §10.1.1): the client holds its body back until told to go on; one whose
        // declared length is over the limit is not told to send it, and gets the 413 at once.
        boolean declaredTooLarge = framing instanceof Framing.Length l && l.bytes() > max;
        if (head.expectsContinue() && !declaredTooLarge) {
            heads.statusLine(100, "Continue").end();
            out.flush();
        }
        return body.readAll(max);
    }

    /**
     * Writes the response head for the client's connection and relays the body.
     *
     * @return whether the response ended as it should, so the connection can carry another
     */
    private boolean relay(long n, Instant start, RequestHead request, UpstreamConnection answer, boolean close) {
        ResponseHead head = answer.head();
        BodyInput source = answer.body();
        Framing framing = source.framing();
        // A body of unknown length is chunked for an HTTP/1.1 client; an HTTP/1.0 client reads to the
        // connection's end (RFC 9112 §6.3), so then the connection closes after it.
        boolean open = framing instanceof Framing.Chunked || framing instanceof Framing.UntilClose;
        boolean chunked = open && request.isHttp11();
        boolean closeAfter = close || (open && !chunked);
        List<Header> shown = new ArrayList<>();
        String type = null;
        try {
            heads.statusLine(head.status(), head.reason());
            HopByHopFields hop = new HopByHopFields(head.fields());
            for (Field field : head.fields()) {
                String name = field.name();
                // PROTOCOL (RFC 9112 §6.3): with Transfer-Encoding, a Content-Length is dropped, not passed on.
                if (hop.contains(name) || (open && field.is("Content-Length"))) {
                    continue;
                }
                heads.field(name, field.value());
                tap.headers().collect(name, field.value(), shown);
                if (type == null && field.is("Content-Type")) {
                    type = field.value();
                }
            }
            if (chunked) {
                heads.field("Transfer-Encoding", "chunked");
            }
            if (closeAfter) {
                heads.field("Connection", "close");
            }
            heads.end();
        } catch (IOException e) {
            // The head is only gathered here; a write fails only when the buffer overflows to a client that left.
            finishEvent(n, start, head, shown, false, null, Outcome.CLIENT_GONE);
            return false;
        }
        boolean stream = type != null && type.regionMatches(true, 0, "text/event-stream", 0, 17);
        BodyOutput body = new BodyOutput(out, chunked);
        // A stream is shown frame by frame, so none of its body is kept.
        ResponseRelay relay = new ResponseRelay(source, body, stream ? 0 : MAX_SHOWN_BODY_BYTES);
        Outcome outcome;
        if (stream) {
            tap.listener().on(new StreamOpened(n, tap.clock().instant(), head.status(), shown));
            int[] frames = {0};
            outcome = relay.frames(frame -> {
                tap.listener().on(new Frame(n, tap.clock().instant(), ++frames[0], frame));
                return true;
            });
            outcome = finish(outcome, body);
            Instant end = tap.clock().instant();
            tap.listener().on(new StreamClosed(n, end, frames[0], relay.bytes(), outcome, Duration.between(start, end),
                    List.of()));
        } else {
            outcome = finish(relay.body(), body);
            finishEvent(n, start, head, shown, true, relay, outcome);
        }
        return outcome == Outcome.COMPLETE && !closeAfter;
    }

    private void finishEvent(long n, Instant start, ResponseHead head, List<Header> shown, boolean relayed,
                             ResponseRelay relay, Outcome outcome) {
        Instant end = tap.clock().instant();
        tap.listener().on(new Response(n, end, head.status(), shown, relayed ? relay.kept() : new byte[0],
                relayed ? relay.bytes() : 0, outcome, Duration.between(start, end)));
    }

    /**
     * Ends the client's response the way the upstream's ended: whole when it was whole; broken off
     * (the connection closes without the body's end) when the upstream broke, so an incomplete
     * response never looks complete.
     */
    private static Outcome finish(Outcome outcome, BodyOutput body) {
        if (outcome != Outcome.COMPLETE) {
            return outcome;
        }
        try {
            body.finish();
            return Outcome.COMPLETE;
        } catch (IOException e) {
            return Outcome.CLIENT_GONE;
        }
    }

    /** The tap's own answer: a JSON-RPC error, with the request's id when there is one. */
    private void refuse(long n, ErrorReply reply, byte[] requestBody, boolean close) throws IOException {
        tap.listener().on(new Refused(n, tap.clock().instant(), reply.status(), reply.message()));
        byte[] json = reply.json(requestBody).getBytes(StandardCharsets.UTF_8);
        heads.statusLine(reply.status(), reply.reasonPhrase())
                .field("Content-Type", "application/json")
                .field("Content-Length", json.length);
        if (close) {
            heads.field("Connection", "close");
        }
        heads.end();
        out.write(json);
        out.flush();
        if (close) {
            lingeringClose();
        }
    }

    /**
     * Closes after a refusal without losing the answer: PROTOCOL (RFC 9112 §9.6) a server that closes
     * while the client is still sending makes the client's TCP stack reset the connection, which can
     * destroy the response before the client has read it. So the tap's side is shut first and what
     * the client still sends is read and dropped, for a bounded time and amount.
     */
    private void lingeringClose() {
        try {
            socket.shutdownOutput();
            lingering = true;
            waitingSince = System.nanoTime();
            long left = 4L * tap.maxRequestBytes();
            while (left > 0) {
                in.skip(in.buffered());
                int r = in.fill();
                if (r < 0) {
                    return;
                }
                left -= r;
            }
        } catch (IOException e) {
            // the client is gone, which is what was waited for
        }
    }

    /** The tap's answer to a message it would not read: the client's fault, or the agent's. */
    private ErrorReply refusing(MalformedMessage e) {
        return ErrorReply.refusing(e, tap.target(), tap.maxRequestBytes());
    }

    private static List<Header> shown(List<Field> fields, ShownHeaders headers) {
        List<Header> out = new ArrayList<>(4);
        for (Field field : fields) {
            headers.collect(field.name(), field.value(), out);
        }
        return out;
    }

    /**
     * Closes the client's connection: a read blocked on it ends at once, and the connection's thread
     * closes its upstream connection on its way out.
     */
    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // closing is all that was wanted
        }
    }
}
