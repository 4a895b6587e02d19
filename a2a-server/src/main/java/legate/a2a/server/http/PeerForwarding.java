package legate.a2a.server.http;

import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.server.OnFirstUse;
import legate.a2a.server.auth.ForwardedCertificates;
import legate.a2a.server.auth.Presented;
import legate.wire.trace.Tracing;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * A request carried out by another instance of the agent, the one that runs the
 * conversation it belongs to (README "Several instances"): the request goes there as it came, its
 * body and its end-to-end headers (A2A-Version, A2A-Extensions, Last-Event-ID, credentials), and
 * the answer comes back byte for byte, each SSE frame flushed the moment it arrives, so the caller
 * cannot tell which instance answered: the frames' {@code id:}s are the task's sequence numbers,
 * the same on every instance.
 *
 * <p>Credentials are forwarded untouched and checked where the request is carried out, as they
 * would be had the caller dialed that instance. The receiving instance's own check of who the
 * caller is and whether the task is theirs sits in its request handler, ahead of the placement
 * that led here, so a forwarded request passes the same check twice and never bypasses it.
 *
 * <p>A client certificate cannot be forwarded as it came: it authenticates the caller's TLS
 * connection to this instance, and the other instance sees this one's connection. The chain this
 * instance's handshake verified goes along with its proof ({@link ForwardedCertificates}), and
 * chain headers a caller sent itself never do.
 *
 * <p>Instances that serve HTTPS dial each other over it: a peer's certificate is trusted when the
 * JDK's authorities issued it or the top of this instance's own chain did (instances of one agent
 * share a certificate, or an authority).
 *
 * <p>A forwarded request carries {@link #FORWARDED} and is never forwarded again: two instances
 * that disagree for a moment about who holds a conversation answer an error, never loop. A caller
 * that sends the header itself only stops its request from being forwarded.
 */
public final class PeerForwarding {
    /** Marks a request that one instance forwarded to another. */
    public static final String FORWARDED = "Legate-Forwarded";
    // Hop-by-hop headers (RFC 9110 §7.6.1) and those the JDK client sets itself and refuses from us.
    private static final TextMapSetter<HttpRequest.Builder> TRACE_HEADERS = (b, name, value) -> b.setHeader(name, value);
    private static final Set<String> NOT_FORWARDED = Set.of("host", "connection", "content-length", "expect", "upgrade",
            "keep-alive", "transfer-encoding", "te", "trailer", "proxy-connection", "date", "from", "via", "warning",
            "http2-settings", FORWARDED.toLowerCase(Locale.ROOT),
            ForwardedCertificates.CHAIN.toLowerCase(Locale.ROOT), ForwardedCertificates.PROOF.toLowerCase(Locale.ROOT));
    private static final Set<String> NOT_RELAYED = Set.of("connection", "content-length", "keep-alive",
            "transfer-encoding", "date", "server");

    private final Supplier<SSLContext> tls;
    private final ForwardedCertificates certificates;
    // Made on the first forwarded request: an instance alone on its store never needs its HTTP client.
    private final OnFirstUse<HttpClient> client = new OnFirstUse<>(this::newClient);

    /** Dialing peers with the JDK's TLS defaults, vouching for no client certificate. */
    public PeerForwarding() {
        this(null, null);
    }

    /**
     * @param tls how https peers are dialed (the authorities trusted), asked for at the first
     *     forwarded request; null: the JDK's defaults
     * @param certificates how a caller's client certificate goes along; null: it does not
     */
    public PeerForwarding(Supplier<SSLContext> tls, ForwardedCertificates certificates) {
        this.tls = tls;
        this.certificates = certificates;
    }

    /**
     * Sends the request, with {@code body} (null: none) and its own HTTP method, to {@code target} and relays its answer; blocks until the answer is over
     * or either side hangs up.
     *
     * @param relayedStreams counts an SSE answer while it is relayed: the binding's, which writes it
     * @throws legate.a2a.model.A2aException -32603 when the other instance cannot be reached
     *     ({@link Unreachable}: nothing was written yet)
     */
    public void forward(Request request, byte[] body, URI target, Response response, Callback callback,
                        AtomicInteger relayedStreams) {
        HttpRequest.Builder out = HttpRequest.newBuilder(target).method(request.getMethod(), body == null
                ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
        for (HttpField f : request.getHeaders()) {
            if (forwards(f.getLowerCaseName())) {
                out.header(f.getName(), f.getValue());
            }
        }
        vouch(Presented.of(request).certificates(), out);
        HttpResponse<InputStream> answer = send(out, target);
        response.setStatus(answer.statusCode());
        answer.headers().map().forEach((name, values) -> {
            if (!NOT_RELAYED.contains(name.toLowerCase(Locale.ROOT))) {
                values.forEach(v -> response.getHeaders().add(name, v));
            }
        });
        boolean stream = answer.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream");
        if (stream) {
            relayedStreams.incrementAndGet();
        }
        OutputStream relayed = Content.Sink.asOutputStream(response);
        try (InputStream in = answer.body()) {
            byte[] buf = new byte[8192];
            int n;
            while ((n = in.read(buf)) >= 0) {
                relayed.write(buf, 0, n);
                // An SSE frame must reach the caller at the agent's pace (PeerForwardingTest holds the
                // second frame back until the first has arrived); Jetty's sink writes through today,
                // and the flush keeps it so whatever buffering it gains.
                relayed.flush();
            }
            relayed.close();
            callback.succeeded();
        } catch (IOException e) {
            // Either side hung up; closing the other one's stream (try-with-resources) tells it so.
            callback.failed(e);
        } finally {
            if (stream) {
                relayedStreams.decrementAndGet();
            }
        }
    }

    /** Adds the client certificate chain this instance verified, with its proof, to a request for a peer. */
    public void vouch(List<X509Certificate> chain, HttpRequest.Builder out) {
        if (certificates != null) {
            certificates.vouch(chain, out::header);
        }
    }

    private HttpClient newClient() {
        HttpClient.Builder b = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5));
        if (tls != null) {
            b.sslContext(tls.get());
        }
        return b.build();
    }

    /** Whether a request header (its lower-case name) goes along to the other instance: end-to-end ones do. */
    public static boolean forwards(String lowerCaseName) {
        return !NOT_FORWARDED.contains(lowerCaseName);
    }

    /**
     * Sends a request, its headers already on {@code out}, to the instance at {@code target}, marked
     * {@link #FORWARDED} and carrying this request's trace context; the answer's body is read as it arrives.
     *
     * @throws Unreachable when the other instance cannot be reached (nothing was answered yet)
     */
    public HttpResponse<InputStream> send(HttpRequest.Builder out, URI target) {
        out.header(FORWARDED, "1");
        // W3C Trace Context: with tracing on, the peer's request span is a child of this request's
        // (replacing the caller's traceparent, which would make the two siblings); off, nothing changes.
        Tracing.propagator().inject(Context.current(), out, TRACE_HEADERS);
        try {
            return client.get().send(out.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw new Unreachable(target, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw A2aError.INTERNAL.exception("interrupted while forwarding to " + target);
        }
    }

    /** The instance that runs the conversation does not answer: -32603 naming it. */
    public static final class Unreachable extends A2aException {
        private final URI target;

        Unreachable(URI target, IOException e) {
            super(A2aError.INTERNAL, "the instance of this agent that runs the conversation (" + target
                    + ") cannot be reached: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())
                    + "; once its lease expires another instance takes the conversation over, so try again shortly");
            this.target = target;
        }

        /** The instance's URL. */
        public URI target() {
            return target;
        }
    }
}
