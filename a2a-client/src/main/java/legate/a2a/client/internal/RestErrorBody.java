package legate.a2a.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import legate.a2a.client.AgentErrorException;
import legate.a2a.client.ErrorInfo;
import legate.a2a.model.A2aError;

/**
 * Reads the error of an HTTP+JSON answer. PROTOCOL (A2A §11.6): a google.rpc.Status,
 * {@code {"error":{"code","status","message","details"}}}, where {@code code} is the HTTP status and
 * {@code details} holds a google.rpc.ErrorInfo whose reason names the A2A error. Several errors share
 * a status (400), so the error is chosen by the reason; only without one does the status decide.
 *
 * <p>PEER: the statuses differ between peers: an A2A 1.0.0 agent (Legate, the official TCK's
 * expectation) answers TaskNotCancelable 409, ContentTypeNotSupported 415 and InvalidAgentResponse
 * 502, a 1.0.1 one (@a2a-js/sdk 1.2.0) 400, 400 and 500. The reason reads the same in both, and
 * either status is read for a body without one.
 */
final class RestErrorBody {
    private RestErrorBody() {
    }

    /** The agent's error, or null when {@code body} is no such error body. */
    static AgentErrorException exception(int httpStatus, JsonNode body) {
        JsonNode error = body == null ? null : body.get("error");
        if (error == null || !error.isObject()) {
            return null;
        }
        ErrorInfo info = ErrorData.errorInfo(error.get("details"));
        String message = error.path("message").asText("");
        A2aError known = info == null ? null : byReason(info.reason());
        if (known == null && error.path("code").isInt() && A2aError.byCode(error.path("code").asInt()) != null
                && error.path("code").asInt() < 0) {
            // PEER (legate tap, JSON-RPC gateways): a JSON-RPC error body on this binding; its code is an A2A one.
            known = A2aError.byCode(error.path("code").asInt());
        }
        if (known == null) {
            known = byStatus(httpStatus);
        }
        return new AgentErrorException(known.code(), message, info);
    }

    private static A2aError byReason(String reason) {
        for (A2aError e : A2aError.values()) {
            if (reason.equals(e.reason())) {
                return e;
            }
        }
        return null;
    }

    /**
     * Without a reason: 404 is a path the agent does not have, 401 a credential, 409 and 415 the one
     * A2A 1.0.0 error each stands for (A2A §5.4), other 4xx a bad request; 502 stays INTERNAL, since
     * a gateway in front of the agent answers it too, and its Status names no A2A error.
     */
    private static A2aError byStatus(int status) {
        return switch (status) {
            case 401 -> A2aError.UNAUTHENTICATED;
            case 404, 405 -> A2aError.METHOD_NOT_FOUND;
            case 409 -> A2aError.TASK_NOT_CANCELABLE;
            case 415 -> A2aError.CONTENT_TYPE_NOT_SUPPORTED;
            case 400, 413 -> A2aError.INVALID_PARAMS;
            default -> A2aError.INTERNAL;
        };
    }
}
