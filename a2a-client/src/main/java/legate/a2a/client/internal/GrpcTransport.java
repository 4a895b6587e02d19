package legate.a2a.client.internal;

import com.google.protobuf.Message;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientInterceptors;
import io.grpc.ForwardingClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.opentelemetry.context.Context;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import legate.a2a.client.AgentErrorException;
import legate.a2a.client.ErrorInfo;
import legate.a2a.client.InvalidResponseException;
import legate.a2a.client.StreamEnd;
import legate.a2a.client.TransportException;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aHeaders;
import legate.a2a.model.A2aMethods;
import legate.a2a.model.grpc.GrpcErrorMapping;
import legate.a2a.model.grpc.GrpcMetadata;
import legate.wire.trace.Tracing;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.StreamResponse;

/**
 * The A2A gRPC binding (A2A §10) from the client's side: each operation is the rpc of the same name
 * of {@code lf.a2a.v1.A2AService} on one HTTP/2 channel to the interface's {@code host:port}, the
 * service parameters and credentials in metadata, and a failed call read back into the same
 * exceptions as the JSON-RPC transport's (the A2A error by its ErrorInfo reason, else by the status).
 *
 * <p>gRPC messages carry no event ids. An agent with Legate's resumable streams extension names
 * the first message's id in the stream's response headers ({@link GrpcMetadata#FIRST_EVENT_ID}),
 * each later message being the task's next event, so each message is delivered with its id and a
 * cut stream is resumed with {@code last-event-id} metadata as an SSE one is with its header.
 * Thread-safe: calls share the channel only.
 */
public final class GrpcTransport implements Transport {
    private final ManagedChannel channel;
    private final Channel stamped;
    private final URI target;

    /**
     * @param channel the channel to the agent, closed by the caller
     * @param target {@code http(s)://host:port}, how failures name the agent
     * @param headers sent on every call as metadata (names lower-cased): credentials, extra headers;
     *     asked for at each call, since a credential may change between calls (an access token renewed)
     */
    public GrpcTransport(ManagedChannel channel, URI target, Supplier<Map<String, String>> headers) {
        this.channel = channel;
        this.target = target;
        this.stamped = ClientInterceptors.intercept(channel, new ClientInterceptor() {
            @Override
            public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
                return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
                    @Override
                    public void start(Listener<R> listener, Metadata metadata) {
                        // PROTOCOL (A2A §3.6, §10): a2a-version on every call, as metadata.
                        metadata.put(GrpcMetadata.VERSION, A2aHeaders.PROTOCOL_VERSION);
                        headers.get().forEach((name, value) ->
                                metadata.put(GrpcMetadata.ascii(name.toLowerCase(Locale.ROOT)), value));
                        // W3C Trace Context, as the HTTP transports write it: one trace across agents.
                        Tracing.propagator().inject(Context.current(), metadata,
                                (m, k, v) -> m.put(GrpcMetadata.ascii(k), v));
                        super.start(listener, metadata);
                    }
                };
            }
        });
    }

    /** The channel this transport calls on. */
    public ManagedChannel channel() {
        return channel;
    }

    @Override
    public <B extends Message.Builder> B call(String method, Message request, B result, Duration bound) {
        CallOptions options = bound == null ? CallOptions.DEFAULT
                : CallOptions.DEFAULT.withDeadlineAfter(bound.toNanos(), TimeUnit.NANOSECONDS);
        try {
            Message answer = ClientCalls.blockingUnaryCall(stamped, rpc(method), options, request);
            @SuppressWarnings("unchecked")
            B merged = (B) result.mergeFrom(answer);
            return merged;
        } catch (StatusRuntimeException e) {
            throw failure(method, e, bound);
        }
    }

    @Override
    public StreamEnd stream(String method, Message request, StreamProgress progress) {
        Metadata extra = new Metadata();
        if (progress.lastEventId() != null) {
            extra.put(GrpcMetadata.LAST_EVENT_ID, progress.lastEventId());
        }
        AtomicReference<Metadata> responseHeaders = new AtomicReference<>();
        ClientCall<Message, Message> call = ClientInterceptors.intercept(stamped,
                MetadataUtils.newAttachHeadersInterceptor(extra),
                MetadataUtils.newCaptureMetadataInterceptor(responseHeaders, new AtomicReference<>()))
                .newCall(rpc(method), CallOptions.DEFAULT);
        progress.open(method.equals(A2aMethods.SUBSCRIBE_TO_TASK));
        int read = 0;
        try {
            Iterator<Message> events = ClientCalls.blockingServerStreamingCall(call, request);
            long next = 0;
            while (events.hasNext()) {
                StreamResponse event = (StreamResponse) events.next();
                if (read++ == 0) {
                    // The headers came before the first message: they name its id, when the agent resumes streams.
                    next = firstEventId(responseHeaders.get());
                }
                // Each message after the first is the task's next event; a Message (which ends a
                // turn) is not one of the task's events and has no id.
                String eventId = next > 0 && !event.hasMessage() ? Long.toString(next++) : null;
                if (!progress.deliver(event, eventId)) {
                    // The listener is done (or the turn is over): the call is given up, the task is not.
                    call.cancel("the client has read what it wanted", null);
                    break;
                }
            }
            return progress.end();
        } catch (StatusRuntimeException e) {
            RuntimeException failure = failure(method, e, null);
            if (read > 0 && e.getStatus().getCode() == Status.Code.UNAVAILABLE && GrpcErrorMapping.errorInfo(e) == null
                    && !(failure instanceof TransportException)) {
                // After messages, an UNAVAILABLE with no A2A error in it is the connection lost mid-stream
                // (grpc-java's own status for it), not the agent's answer: a cut, which may be resumed.
                throw new TransportException(TransportException.Kind.CUT, target, "the connection to " + target
                        + " broke: " + describe(e.getStatus()), e);
            }
            throw failure;
        }
    }

    /** The id {@link GrpcMetadata#FIRST_EVENT_ID} names, or 0 when the headers name none (an agent without the extension). */
    private static long firstEventId(Metadata headers) {
        String id = headers == null ? null : headers.get(GrpcMetadata.FIRST_EVENT_ID);
        try {
            return id == null ? 0 : Math.max(0, Long.parseLong(id.strip()));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @SuppressWarnings("unchecked")
    private static MethodDescriptor<Message, Message> rpc(String method) {
        for (MethodDescriptor<?, ?> m : A2AServiceGrpc.getServiceDescriptor().getMethods()) {
            if (method.equals(m.getBareMethodName())) {
                return (MethodDescriptor<Message, Message>) m;
            }
        }
        throw new IllegalArgumentException("lf.a2a.v1.A2AService has no rpc " + method);
    }

    /**
     * A failed call as the client's exceptions: an A2A answer (by the ErrorInfo reason, else the
     * status code) is an {@link AgentErrorException}; no connection, a deadline or a broken one is a
     * {@link TransportException}. PROTOCOL (A2A §10.6): classify by reason, never by code alone.
     */
    private RuntimeException failure(String method, StatusRuntimeException e, Duration bound) {
        Status status = e.getStatus();
        Throwable cause = status.getCause();
        if (status.getCode() == Status.Code.DEADLINE_EXCEEDED) {
            return new TransportException(TransportException.Kind.TIMED_OUT, target, "no answer from " + target
                    + (bound == null ? "" : " within " + bound.toMillis() + " ms"), e);
        }
        if (has(cause, ConnectException.class) || has(cause, UnresolvedAddressException.class)) {
            return new TransportException(TransportException.Kind.CONNECT_FAILED, target, "cannot connect to "
                    + target + ": " + describe(status), e);
        }
        if (has(cause, IOException.class) || status.getCode() == Status.Code.CANCELLED) {
            return new TransportException(TransportException.Kind.CUT, target, "the connection to " + target
                    + " broke: " + describe(status), e);
        }
        var info = GrpcErrorMapping.errorInfo(e);
        A2aError error = GrpcErrorMapping.errorOf(status.getCode(), info);
        if (error == null && status.getCode() == Status.Code.UNAVAILABLE) {
            // The agent answered UNAVAILABLE itself (draining, starting): worth another try, like -32603 with 503.
            error = A2aError.INTERNAL;
        }
        if (error == null) {
            return new InvalidResponseException(method + " at " + target + " failed with gRPC status " + describe(status));
        }
        ErrorInfo detail = info == null ? null : new ErrorInfo(info.getReason(), info.getDomain(), info.getMetadataMap());
        return new AgentErrorException(error.code(), status.getDescription(), detail);
    }

    private static String describe(Status status) {
        return status.getCode() + (status.getDescription() == null ? "" : " " + status.getDescription());
    }

    private static boolean has(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }
}
