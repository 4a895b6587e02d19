package legate.a2a.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import legate.a2a.client.AgentErrorException;
import legate.a2a.model.A2aError;
import legate.wire.json.WireJson;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How the REST transport reads an HTTP+JSON error body (A2A §11.6): by the ErrorInfo reason first,
 * whatever status came with it, so an A2A 1.0.0 agent (409, 415, 502) and a 1.0.1 one such as
 * @a2a-js/sdk 1.2.0 (400, 400, 500) read as the same error; by the status only without a reason.
 */
class RestErrorBodyTest {
    private static JsonNode body(int status, String statusName, String reason) throws Exception {
        String details = reason == null ? "[]" : "[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\""
                + reason + "\",\"domain\":\"a2a-protocol.org\"}]";
        return WireJson.mapper().readTree("{\"error\":{\"code\":" + status + ",\"status\":\"" + statusName
                + "\",\"message\":\"m\",\"details\":" + details + "}}");
    }

    // PEER (A2A 1.0.0 §5.4 vs 1.0.1 §5.4 = @a2a-js/sdk 1.2.0): each error under both statuses.
    @ParameterizedTest
    @CsvSource({
            "409, FAILED_PRECONDITION, TASK_NOT_CANCELABLE, -32002",
            "400, FAILED_PRECONDITION, TASK_NOT_CANCELABLE, -32002",
            "415, INVALID_ARGUMENT, CONTENT_TYPE_NOT_SUPPORTED, -32005",
            "400, INVALID_ARGUMENT, CONTENT_TYPE_NOT_SUPPORTED, -32005",
            "502, INTERNAL, INVALID_AGENT_RESPONSE, -32006",
            "500, INTERNAL, INVALID_AGENT_RESPONSE, -32006",
            "400, UNIMPLEMENTED, VERSION_NOT_SUPPORTED, -32009",
            "400, FAILED_PRECONDITION, PUSH_NOTIFICATION_NOT_SUPPORTED, -32003",
            "404, NOT_FOUND, TASK_NOT_FOUND, -32001"})
    void theReasonNamesTheErrorWhateverTheStatus(int status, String statusName, String reason, int code) throws Exception {
        AgentErrorException e = RestErrorBody.exception(status, body(status, statusName, reason));
        assertThat(e.code()).isEqualTo(code);
        assertThat(e.reason()).isEqualTo(reason);
    }

    // Without ErrorInfo (no A2A peer omits it, A2A §11.6; a gateway's Status may): the status decides.
    @ParameterizedTest
    @CsvSource({
            "409, ABORTED, TASK_NOT_CANCELABLE",
            "415, INVALID_ARGUMENT, CONTENT_TYPE_NOT_SUPPORTED",
            "400, INVALID_ARGUMENT, INVALID_PARAMS",
            "404, NOT_FOUND, METHOD_NOT_FOUND",
            "401, UNAUTHENTICATED, UNAUTHENTICATED",
            "502, UNAVAILABLE, INTERNAL",
            "500, INTERNAL, INTERNAL"})
    void withoutAReasonTheStatusDecides(int status, String statusName, A2aError expected) throws Exception {
        AgentErrorException e = RestErrorBody.exception(status, body(status, statusName, null));
        assertThat(e.code()).isEqualTo(expected.code());
    }
}
