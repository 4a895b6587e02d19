package legate.a2a.model.grpc;

import com.google.protobuf.Any;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.rpc.ErrorInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.StatusProto;
import java.util.Map;
import legate.a2a.model.A2aError;

/**
 * The one place that maps an {@link A2aError} to a gRPC status and back (A2A §10.6): the status code,
 * and a {@code google.rpc.Status} whose details hold a {@code google.rpc.ErrorInfo} with the error's
 * reason and the domain {@code a2a-protocol.org}, carried in the {@code grpc-status-details-bin}
 * trailer.
 *
 * <p>The codes are A2A 1.0.0's (§5.4's gRPC column), which the official TCK checks: UNIMPLEMENTED
 * for the push, unsupported-operation and version errors. A2A 1.0.1, and @a2a-js/sdk 1.2.0 with it,
 * moved those three to FAILED_PRECONDITION; the SDK's gRPC client names the error by its ErrorInfo
 * reason alone, so it reads either (docs/peers.md §8). A reader here does the same: the ErrorInfo
 * reason first, so a 1.0.1 peer's FAILED_PRECONDITION reads as the error it names, and the code
 * only for a status without one.
 */
public final class GrpcErrorMapping {
    private GrpcErrorMapping() {
    }

    /** The gRPC status code an A2A error is answered with. */
    public static Status.Code codeOf(A2aError error) {
        return switch (error) {
            case TASK_NOT_FOUND -> Status.Code.NOT_FOUND;
            case TASK_NOT_CANCELABLE, EXTENDED_AGENT_CARD_NOT_CONFIGURED, EXTENSION_SUPPORT_REQUIRED ->
                    Status.Code.FAILED_PRECONDITION;
            // PROTOCOL (A2A 1.0.0 §5.4): UNIMPLEMENTED (1.0.1 and @a2a-js/sdk 1.2.0: FAILED_PRECONDITION).
            case PUSH_NOTIFICATION_NOT_SUPPORTED, UNSUPPORTED_OPERATION, VERSION_NOT_SUPPORTED -> Status.Code.UNIMPLEMENTED;
            case CONTENT_TYPE_NOT_SUPPORTED, INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR -> Status.Code.INVALID_ARGUMENT;
            case INVALID_AGENT_RESPONSE, INTERNAL -> Status.Code.INTERNAL;
            case METHOD_NOT_FOUND -> Status.Code.UNIMPLEMENTED;
            case UNAUTHENTICATED -> Status.Code.UNAUTHENTICATED;
        };
    }

    /** The error as a gRPC call ends with it: its code, {@code message} and the ErrorInfo detail. */
    public static StatusRuntimeException exception(A2aError error, String message) {
        return exception(error, codeOf(error), message, Map.of());
    }

    /**
     * The same with another code (UNAVAILABLE for a server that is stopping) and ErrorInfo metadata.
     * An error without a reason (-32603, -32601, -32700: the JS SDK sends no ErrorInfo for those
     * either) carries no detail.
     */
    public static StatusRuntimeException exception(A2aError error, Status.Code code, String message,
                                                   Map<String, String> metadata) {
        com.google.rpc.Status.Builder status = com.google.rpc.Status.newBuilder()
                .setCode(code.value())
                .setMessage(message == null ? "" : message);
        if (error.reason() != null) {
            status.addDetails(Any.pack(ErrorInfo.newBuilder()
                    .setReason(error.reason())
                    .setDomain(A2aError.DOMAIN)
                    .putAllMetadata(metadata)
                    .build()));
        }
        return StatusProto.toStatusRuntimeException(status.build());
    }

    /** The ErrorInfo a failed call carries in its trailers, or null when it carries none. */
    public static ErrorInfo errorInfo(Throwable failure) {
        com.google.rpc.Status status = StatusProto.fromThrowable(failure);
        if (status == null) {
            return null;
        }
        for (Any detail : status.getDetailsList()) {
            if (detail.is(ErrorInfo.class)) {
                try {
                    return detail.unpack(ErrorInfo.class);
                } catch (InvalidProtocolBufferException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /**
     * The A2A error a failed call stands for: by the ErrorInfo reason of the A2A domain when there
     * is one (whichever code a 1.0.0 or 1.0.1 peer sent with it), else by the status code alone;
     * null for a code no A2A error is answered with (UNAVAILABLE, CANCELLED, DEADLINE_EXCEEDED:
     * transport conditions, not answers).
     *
     * <p>Without a reason: PROTOCOL (A2A §10.6) every A2A error carries its ErrorInfo, so a bare
     * UNIMPLEMENTED is gRPC's own answer for an rpc the server does not have (METHOD_NOT_FOUND), and
     * a bare FAILED_PRECONDITION is the server refusing the operation as it stands (UNSUPPORTED_OPERATION).
     */
    public static A2aError errorOf(Status.Code code, ErrorInfo info) {
        if (info != null && A2aError.DOMAIN.equals(info.getDomain())) {
            for (A2aError e : A2aError.values()) {
                if (info.getReason().equals(e.reason())) {
                    return e;
                }
            }
        }
        return switch (code) {
            case NOT_FOUND -> A2aError.TASK_NOT_FOUND;
            case INVALID_ARGUMENT -> A2aError.INVALID_PARAMS;
            case FAILED_PRECONDITION -> A2aError.UNSUPPORTED_OPERATION;
            case UNIMPLEMENTED -> A2aError.METHOD_NOT_FOUND;
            case UNAUTHENTICATED -> A2aError.UNAUTHENTICATED;
            case INTERNAL, UNKNOWN, DATA_LOSS -> A2aError.INTERNAL;
            default -> null;
        };
    }
}
