package legate.a2a.server.http;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.observe.HttpFieldsGetter;
import legate.a2a.server.observe.ServerMetrics;
import legate.wire.trace.Tracing;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * What every A2A binding over HTTP does at its edge before and after the request handler, kept in
 * one place so no binding can do it differently: the request's server span and its count in
 * {@link ServerMetrics}, the credential (401 before the body is read, {@link LingeringClose}), the
 * Content-Type and size of the body (413 read no further), A2A-Version, the 503 of a draining
 * server, forwarding to the instance that runs a conversation ({@link PeerForwarding}) and the
 * keep-alive of open streams. Each request passes through one {@link Exchange}; the binding decides
 * only what its bodies, paths and error shapes look like.
 */
public final class BindingEdge {
    private final String binding;
    private final String rpcSystem;
    private final String errorCodeAttribute;
    private final CallerAuthentication authentication;
    private final int maxBodyBytes;
    private final Scheduler scheduler;
    private final KeepAlive keepAlive;
    private final ServerMetrics metrics;
    private final Tracing tracing;
    private final PeerForwarding forwarding;
    // A relayed stream is written by this binding as much as one it serves itself: it holds a
    // connection and a thread here, so the open-streams gauge (and the tests' check that none is
    // left behind) counts it.
    private final AtomicInteger relayedStreams = new AtomicInteger();

    /**
     * @param binding the binding's label in {@link ServerMetrics} ({@code jsonrpc}, {@code rest})
     * @param rpcSystem the span's {@code rpc.system}
     * @param errorCodeAttribute the span attribute an error's A2A code is written to
     * @param scheduler runs the keep-alive sweep of open streams and the lingering closes (the server's own)
     * @param keepAlive how long a stream may stay silent before it gets an SSE comment
     * @param forwarding carries a request to the instance that runs its conversation (one for every binding)
     */
    public BindingEdge(String binding, String rpcSystem, String errorCodeAttribute,
                       CallerAuthentication authentication, int maxBodyBytes, Scheduler scheduler, Duration keepAlive,
                       ServerMetrics metrics, Tracing tracing, PeerForwarding forwarding) {
        this.binding = binding;
        this.rpcSystem = rpcSystem;
        this.errorCodeAttribute = errorCodeAttribute;
        this.authentication = authentication;
        this.maxBodyBytes = maxBodyBytes;
        this.scheduler = scheduler;
        this.keepAlive = new KeepAlive(scheduler, keepAlive);
        this.metrics = metrics;
        this.tracing = tracing;
        this.forwarding = forwarding;
    }

    /** Runs {@code answer} on one request, inside the request's server span when tracing is on. */
    public void serve(Request request, Response response, Callback callback, Consumer<Exchange> answer) {
        long start = System.nanoTime();
        if (!tracing.on()) {
            // Tracing off: this one check, no span, no scope, no header read.
            answer.accept(new Exchange(this, request, response, callback, start, null));
            return;
        }
        Context parent = Tracing.propagator().extract(Context.root(), request.getHeaders(), HttpFieldsGetter.INSTANCE);
        Span span = tracing.tracer().spanBuilder("a2a request").setParent(parent).setSpanKind(SpanKind.SERVER)
                .setAttribute("rpc.system", rpcSystem).startSpan();
        try (Scope scope = span.makeCurrent()) {
            answer.accept(new Exchange(this, request, response, callback, start, span));
        }
    }

    /** Ends every open stream cleanly, each after the frames already published: the server is stopping. */
    public void endStreams() {
        keepAlive.endAll();
    }

    /**
     * The streams this binding is writing now, from their first event until their last write, those
     * relayed from the instance that runs their conversation included.
     */
    public int openStreams() {
        return keepAlive.openStreams() + relayedStreams.get();
    }

    String binding() {
        return binding;
    }

    String errorCodeAttribute() {
        return errorCodeAttribute;
    }

    CallerAuthentication authentication() {
        return authentication;
    }

    int maxBodyBytes() {
        return maxBodyBytes;
    }

    Scheduler scheduler() {
        return scheduler;
    }

    KeepAlive keepAlive() {
        return keepAlive;
    }

    ServerMetrics metrics() {
        return metrics;
    }

    /** Has the instance at {@code target} answer the request, relayed through this binding. */
    void forward(Request request, byte[] body, URI target, Response response, Callback callback) {
        forwarding.forward(request, body, target, response, callback, relayedStreams);
    }
}
