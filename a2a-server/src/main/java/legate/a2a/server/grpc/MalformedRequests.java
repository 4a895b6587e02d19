package legate.a2a.server.grpc;

import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.ServiceDescriptor;
import io.grpc.StatusRuntimeException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import legate.a2a.model.A2aError;
import legate.a2a.model.NestingLimit;
import legate.a2a.model.grpc.GrpcErrorMapping;
import legate.a2a.server.observe.ThrottledLog;

/**
 * The gRPC binding's answer to a request message that is not valid protobuf (invalid UTF-8 in a
 * string field, messages nested past protobuf's limit of 100, truncated bytes): INVALID_ARGUMENT
 * saying what was wrong, as -32602 on the other bindings, and at most one log line per interval.
 *
 * <p>grpc-java parses a request in the method's marshaller, outside any code of the service; a
 * parse failure there escapes as an application error: the call was answered UNKNOWN
 * "Application error processing RPC" and each one logged a SEVERE stack trace of some 30 lines
 * (DEFECT: a 30-byte request did it, as often as a caller liked). So each method's request
 * marshaller is wrapped by one that never throws: it hands on the message, or why it is not one,
 * and the call is closed here before any interceptor or the service sees it.
 */
final class MalformedRequests {
    private MalformedRequests() {
    }

    /** A request as the wrapped marshaller read it: the message, or why there is none. */
    record Parsed<Q>(Q message, String failure) {
    }

    /** {@code service} with every method's request parsed by a marshaller that cannot throw. */
    static ServerServiceDefinition guard(ServerServiceDefinition service, ThrottledLog log) {
        ServiceDescriptor original = service.getServiceDescriptor();
        ServiceDescriptor.Builder descriptor = ServiceDescriptor.newBuilder(original.getName())
                .setSchemaDescriptor(original.getSchemaDescriptor());
        List<ServerMethodDefinition<?, ?>> methods = new ArrayList<>();
        for (ServerMethodDefinition<?, ?> m : service.getMethods()) {
            ServerMethodDefinition<?, ?> guarded = guard(m, log);
            descriptor.addMethod(guarded.getMethodDescriptor());
            methods.add(guarded);
        }
        ServerServiceDefinition.Builder out = ServerServiceDefinition.builder(descriptor.build());
        methods.forEach(out::addMethod);
        return out.build();
    }

    private static <Q, R> ServerMethodDefinition<Parsed<Q>, R> guard(ServerMethodDefinition<Q, R> m, ThrottledLog log) {
        MethodDescriptor<Q, R> plain = m.getMethodDescriptor();
        MethodDescriptor<Parsed<Q>, R> guarded = plain.toBuilder(new Reading<>(plain), plain.getResponseMarshaller())
                .build();
        ServerCallHandler<Q, R> inner = m.getServerCallHandler();
        return ServerMethodDefinition.create(guarded, (call, headers) -> {
            PlainRequestCall<Q, R> plainCall = new PlainRequestCall<>(call, plain);
            return new Listener<>(inner.startCall(plainCall, headers), plainCall, plain, log);
        });
    }

    /** The method's own request marshaller, its failure turned into a value. */
    private record Reading<Q>(MethodDescriptor<Q, ?> method) implements MethodDescriptor.Marshaller<Parsed<Q>> {
        @Override
        public InputStream stream(Parsed<Q> value) {
            return method.getRequestMarshaller().stream(value.message());
        }

        @Override
        public Parsed<Q> parse(InputStream stream) {
            try {
                return new Parsed<>(method.parseRequest(stream), null);
            } catch (RuntimeException e) {
                return new Parsed<>(null, why(e));
            }
        }

        private static String why(RuntimeException e) {
            // grpc-java's protobuf marshaller says "Invalid protobuf byte sequence", the cause says what.
            Throwable cause = e instanceof StatusRuntimeException && e.getCause() != null ? e.getCause() : e;
            String said = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
            if (said.contains("levels of nesting")) {
                return "it nests messages more than 100 levels deep, protobuf's limit (metadata and data values may"
                        + " nest at most " + NestingLimit.MAX_DEPTH + " levels of objects and arrays)";
            }
            int end = said.indexOf('\n');
            return end < 0 ? said : said.substring(0, end);
        }
    }

    /** Hands a parsed message on; closes the call INVALID_ARGUMENT on one that did not parse. */
    private static final class Listener<Q, R> extends ServerCall.Listener<Parsed<Q>> {
        private final ServerCall.Listener<Q> inner;
        private final PlainRequestCall<Q, R> call;
        private final MethodDescriptor<Q, R> method;
        private final ThrottledLog log;
        private volatile boolean refused;

        Listener(ServerCall.Listener<Q> inner, PlainRequestCall<Q, R> call, MethodDescriptor<Q, R> method,
                 ThrottledLog log) {
            this.inner = inner;
            this.call = call;
            this.method = method;
            this.log = log;
        }

        @Override
        public void onMessage(Parsed<Q> parsed) {
            if (parsed.failure() == null) {
                inner.onMessage(parsed.message());
                return;
            }
            refused = true;
            String description = "the request is not a valid " + requestType(method) + ": " + parsed.failure();
            log.warn("gRPC " + method.getBareMethodName() + " refused (INVALID_ARGUMENT): " + description);
            // An interceptor may have closed the call already (no credential): that answer stands.
            if (!call.closed()) {
                StatusRuntimeException refusal = GrpcErrorMapping.exception(A2aError.INVALID_PARAMS, description);
                call.close(refusal.getStatus(), refusal.getTrailers() == null ? new Metadata() : refusal.getTrailers());
            }
        }

        @Override
        public void onHalfClose() {
            // Refused: there is no request for the method to run on (it would close the call a second time).
            if (!refused) {
                inner.onHalfClose();
            }
        }

        @Override
        public void onCancel() {
            inner.onCancel();
        }

        @Override
        public void onComplete() {
            inner.onComplete();
        }

        @Override
        public void onReady() {
            inner.onReady();
        }
    }

    private static String requestType(MethodDescriptor<?, ?> method) {
        return method.getRequestMarshaller() instanceof MethodDescriptor.PrototypeMarshaller<?> p
                && p.getMessagePrototype() != null ? p.getMessagePrototype().getClass().getName() : "request message";
    }
}
