package legate.a2a.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import legate.a2a.model.A2aError;
import org.junit.jupiter.api.Test;

/**
 * The status of every A2A error on the HTTP+JSON binding, against A2A 1.0.0 §5.4's HTTP column, and
 * the google.rpc.Code name in its body. RestBindingTest shows the same on the wire for the errors a
 * running server can be made to answer; this covers the ones it cannot (ExtensionSupportRequired
 * with no required extension declared, for one).
 */
class RestErrorsTest {
    /** PROTOCOL (A2A 1.0.0 §5.4): the HTTP column, one row per A2A error. */
    private static final Map<A2aError, Integer> SPEC_1_0_0 = Map.of(
            A2aError.TASK_NOT_FOUND, 404,
            A2aError.TASK_NOT_CANCELABLE, 409,
            A2aError.PUSH_NOTIFICATION_NOT_SUPPORTED, 400,
            A2aError.UNSUPPORTED_OPERATION, 400,
            A2aError.CONTENT_TYPE_NOT_SUPPORTED, 415,
            A2aError.INVALID_AGENT_RESPONSE, 502,
            A2aError.EXTENDED_AGENT_CARD_NOT_CONFIGURED, 400,
            A2aError.EXTENSION_SUPPORT_REQUIRED, 400,
            A2aError.VERSION_NOT_SUPPORTED, 400);

    /** google/rpc/code.proto's HTTP mapping of the names this binding uses. */
    private static final Map<String, Integer> CODE_PROTO_HTTP = Map.of(
            "INVALID_ARGUMENT", 400, "FAILED_PRECONDITION", 400, "NOT_FOUND", 404, "UNAUTHENTICATED", 401,
            "INTERNAL", 500);

    @Test
    void everyA2aErrorHasTheStatusOfTheSpecs1_0_0Table() {
        SPEC_1_0_0.forEach((error, status) -> assertThat(RestErrors.httpStatus(error)).as(error.name()).isEqualTo(status));
    }

    @Test
    void theStatusNameNeverContradictsTheStatusClass() {
        // DEFECT: UNIMPLEMENTED (A2A 1.0.0's gRPC code of three errors answered here with 400) would
        // tell a reader of the body 501, a server failing, for a request refused by the server's state.
        for (A2aError error : A2aError.values()) {
            String name = RestErrors.statusName(error);
            assertThat(CODE_PROTO_HTTP).as(error + " -> " + name).containsKey(name);
            assertThat(CODE_PROTO_HTTP.get(name) / 100).as(error + " -> " + name)
                    .isEqualTo(RestErrors.httpStatus(error) / 100);
        }
        // 409, 415 and 502 have no code.proto name of their own: each keeps its §5.4 gRPC code.
        assertThat(RestErrors.statusName(A2aError.TASK_NOT_CANCELABLE)).isEqualTo("FAILED_PRECONDITION");
        assertThat(RestErrors.statusName(A2aError.CONTENT_TYPE_NOT_SUPPORTED)).isEqualTo("INVALID_ARGUMENT");
        assertThat(RestErrors.statusName(A2aError.INVALID_AGENT_RESPONSE)).isEqualTo("INTERNAL");
    }
}
