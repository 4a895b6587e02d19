package legate.a2a.server.grpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import java.util.concurrent.atomic.AtomicLong;
import legate.a2a.model.grpc.GrpcMetadata;

/**
 * Legate's resumable streams extension on gRPC, whose messages carry no id as SSE frames do: a
 * server stream's response headers name the id of its first message
 * ({@link GrpcMetadata#FIRST_EVENT_ID}), and each message after it is the task's next event, one
 * id further on (the stream delivers a task's events in sequence, none skipped). So a client
 * knows the id of every message it read, and resumes a cut stream with {@code last-event-id} as an
 * SSE client does.
 *
 * <p>The headers leave with the first message, which is when its id is known: the stream sets it
 * in the holder this puts in the call's context ({@link #FIRST}) before sending that message.
 */
final class FirstEventIds implements ServerInterceptor {
    /** The first message's id, set by the stream before it sends that message; 0 for none. */
    static final Context.Key<AtomicLong> FIRST = Context.key("legate-first-event-id");

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                      ServerCallHandler<Q, R> next) {
        if (call.getMethodDescriptor().getType() != MethodDescriptor.MethodType.SERVER_STREAMING) {
            return next.startCall(call, headers);
        }
        AtomicLong first = new AtomicLong();
        ServerCall<Q, R> stamped = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
            @Override
            public void sendHeaders(Metadata responseHeaders) {
                long id = first.get();
                if (id > 0) {
                    responseHeaders.put(GrpcMetadata.FIRST_EVENT_ID, Long.toString(id));
                }
                super.sendHeaders(responseHeaders);
            }
        };
        return Contexts.interceptCall(Context.current().withValue(FIRST, first), stamped, headers, next);
    }

    /** The holder of the current call's first id, or a detached one when the call has none (a test's direct call). */
    static AtomicLong current() {
        AtomicLong first = FIRST.get();
        return first != null ? first : new AtomicLong();
    }
}
