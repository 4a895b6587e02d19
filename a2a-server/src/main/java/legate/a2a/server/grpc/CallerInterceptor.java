package legate.a2a.server.grpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.StatusRuntimeException;
import java.security.cert.X509Certificate;
import java.util.List;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aHeaders;
import legate.a2a.model.grpc.GrpcErrorMapping;
import legate.a2a.model.grpc.GrpcMetadata;
import legate.a2a.server.Principal;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.Presented;
import legate.a2a.server.auth.Unauthenticated;
import org.eclipse.jetty.http.HttpFields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The edge of the gRPC binding, before any method runs: who the caller is (A2A §7: credentials in
 * metadata, checked by the same {@link CallerAuthentication} as the JSON-RPC binding's headers) and
 * which protocol version it speaks (A2A §3.6: {@code a2a-version}). A call that fails either is
 * closed here, before its request message is read, so it never reaches a task.
 *
 * <p>The principal and the call's metadata travel to the service in the gRPC {@link Context}.
 */
final class CallerInterceptor implements ServerInterceptor {
    /** The principal the call's credential proves. */
    static final Context.Key<Principal> CALLER = Context.key("legate-a2a-caller");
    /** The call's metadata, for the service parameters a method reads (Last-Event-ID). */
    static final Context.Key<Metadata> HEADERS = Context.key("legate-a2a-headers");
    /** The client certificate chain the call's TLS handshake verified (none without one), for a forwarded call. */
    static final Context.Key<List<X509Certificate>> CERTIFICATES = Context.key("legate-a2a-certificates");
    private static final Logger LOG = LoggerFactory.getLogger(CallerInterceptor.class);

    private final CallerAuthentication authentication;
    private final GrpcCallCounter counter;

    CallerInterceptor(CallerAuthentication authentication, GrpcCallCounter counter) {
        this.authentication = authentication;
        this.counter = counter;
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                       ServerCallHandler<Q, R> next) {
        String method = call.getMethodDescriptor().getBareMethodName();
        Principal caller;
        List<X509Certificate> certificates =
                Presented.peerCertificates(call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION));
        try {
            // PROTOCOL (A2A §7, §3.3.2): every method needs a credential when a scheme is configured;
            // a refused caller learns nothing about tasks, only what to send.
            caller = authentication.authenticate(new Presented(fields(headers), certificates));
        } catch (Unauthenticated e) {
            LOG.info("refused a gRPC call from {}: {}", call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR), e.why());
            return refuse(call, method, e.error(), e.getMessage());
        }
        String refusal = versionRefusal(headers.get(GrpcMetadata.VERSION));
        if (refusal != null) {
            return refuse(call, method, A2aError.VERSION_NOT_SUPPORTED, refusal);
        }
        Context context = Context.current().withValues(CALLER, caller, HEADERS, headers, CERTIFICATES, certificates);
        return Contexts.interceptCall(context, call, headers, next);
    }

    private <Q, R> ServerCall.Listener<Q> refuse(ServerCall<Q, R> call, String method, A2aError error, String message) {
        counter.count(method, error.code());
        StatusRuntimeException status = GrpcErrorMapping.exception(error, message);
        call.close(status.getStatus(), status.getTrailers());
        return new ServerCall.Listener<>() {
        };
    }

    /**
     * PROTOCOL (A2A §3.6): Major.Minor, a patch number tolerated; absent or empty means 0.3, which
     * Legate does not speak. Null when the version is 1.0.
     */
    static String versionRefusal(String version) {
        String v = version == null ? "" : version.trim();
        String majorMinor = v.chars().filter(c -> c == '.').count() >= 2 ? v.substring(0, v.lastIndexOf('.')) : v;
        if (A2aHeaders.PROTOCOL_VERSION.equals(majorMinor)) {
            return null;
        }
        return v.isEmpty()
                ? "a2a-version metadata is missing, which means 0.3; this agent speaks A2A 1.0: send \"a2a-version: 1.0\""
                : "A2A version " + v + " is not supported; this agent speaks A2A 1.0";
    }

    /** The call's text metadata as HTTP fields, what every credential scheme reads (names compare without case). */
    private static HttpFields fields(Metadata headers) {
        HttpFields.Mutable fields = HttpFields.build();
        for (String key : headers.keys()) {
            if (key.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
                continue;
            }
            Iterable<String> values = headers.getAll(GrpcMetadata.ascii(key));
            if (values != null) {
                for (String value : values) {
                    fields.add(key, value);
                }
            }
        }
        return fields;
    }
}
