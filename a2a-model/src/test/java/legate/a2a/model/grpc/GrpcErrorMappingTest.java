package legate.a2a.model.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.rpc.ErrorInfo;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Map;
import legate.a2a.model.A2aError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The gRPC status of every A2A error (A2A 1.0.0 §5.4's gRPC column) and how a failed call is read
 * back: by its ErrorInfo reason whichever code carried it (a 1.0.1 peer such as @a2a-js/sdk 1.2.0
 * sends FAILED_PRECONDITION where 1.0.0 says UNIMPLEMENTED), by the code only without one.
 */
class GrpcErrorMappingTest {
    /** PROTOCOL (A2A 1.0.0 §5.4): the gRPC column, one row per A2A error. */
    private static final Map<A2aError, Status.Code> SPEC_1_0_0 = Map.of(
            A2aError.TASK_NOT_FOUND, Status.Code.NOT_FOUND,
            A2aError.TASK_NOT_CANCELABLE, Status.Code.FAILED_PRECONDITION,
            A2aError.PUSH_NOTIFICATION_NOT_SUPPORTED, Status.Code.UNIMPLEMENTED,
            A2aError.UNSUPPORTED_OPERATION, Status.Code.UNIMPLEMENTED,
            A2aError.CONTENT_TYPE_NOT_SUPPORTED, Status.Code.INVALID_ARGUMENT,
            A2aError.INVALID_AGENT_RESPONSE, Status.Code.INTERNAL,
            A2aError.EXTENDED_AGENT_CARD_NOT_CONFIGURED, Status.Code.FAILED_PRECONDITION,
            A2aError.EXTENSION_SUPPORT_REQUIRED, Status.Code.FAILED_PRECONDITION,
            A2aError.VERSION_NOT_SUPPORTED, Status.Code.UNIMPLEMENTED);

    @Test
    void everyA2aErrorHasTheCodeOfTheSpecs1_0_0Table() {
        SPEC_1_0_0.forEach((error, code) -> {
            StatusRuntimeException e = GrpcErrorMapping.exception(error, "m");
            assertThat(e.getStatus().getCode()).as(error.name()).isEqualTo(code);
            // PROTOCOL (A2A §10.6): the ErrorInfo rides along, and reading the call back gives the error again.
            ErrorInfo info = GrpcErrorMapping.errorInfo(e);
            assertThat(info.getReason()).isEqualTo(error.reason());
            assertThat(info.getDomain()).isEqualTo(A2aError.DOMAIN);
            assertThat(GrpcErrorMapping.errorOf(e.getStatus().getCode(), info)).isEqualTo(error);
        });
    }

    // PEER (@a2a-js/sdk 1.2.0, A2A 1.0.1): FAILED_PRECONDITION with the reason reads as the reason's error.
    @ParameterizedTest
    @CsvSource({
            "FAILED_PRECONDITION, PUSH_NOTIFICATION_NOT_SUPPORTED",
            "FAILED_PRECONDITION, UNSUPPORTED_OPERATION",
            "FAILED_PRECONDITION, VERSION_NOT_SUPPORTED",
            "UNIMPLEMENTED, VERSION_NOT_SUPPORTED",
            "FAILED_PRECONDITION, TASK_NOT_CANCELABLE"})
    void theReasonDecidesWhicheverCodeCarriedIt(Status.Code code, A2aError error) {
        StatusRuntimeException e = GrpcErrorMapping.exception(error, code, "m", Map.of());
        assertThat(GrpcErrorMapping.errorOf(e.getStatus().getCode(), GrpcErrorMapping.errorInfo(e))).isEqualTo(error);
    }

    // A reason of another domain names no A2A error: the code decides, as without ErrorInfo.
    @ParameterizedTest
    @CsvSource({
            "UNIMPLEMENTED, METHOD_NOT_FOUND",
            "FAILED_PRECONDITION, UNSUPPORTED_OPERATION",
            "NOT_FOUND, TASK_NOT_FOUND",
            "INVALID_ARGUMENT, INVALID_PARAMS",
            "UNAUTHENTICATED, UNAUTHENTICATED",
            "INTERNAL, INTERNAL"})
    void withoutAnA2aReasonTheCodeDecides(Status.Code code, A2aError expected) {
        assertThat(GrpcErrorMapping.errorOf(code, null)).isEqualTo(expected);
        ErrorInfo foreign = ErrorInfo.newBuilder().setReason("TASK_NOT_FOUND").setDomain("example.com").build();
        assertThat(GrpcErrorMapping.errorOf(code, foreign)).isEqualTo(expected);
    }

    @Test
    void transportConditionsAreNoA2aError() {
        assertThat(GrpcErrorMapping.errorOf(Status.Code.UNAVAILABLE, null)).isNull();
        assertThat(GrpcErrorMapping.errorOf(Status.Code.DEADLINE_EXCEEDED, null)).isNull();
    }
}
