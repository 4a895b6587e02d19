package legate.a2a.server.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.wire.json.WireJson;

/**
 * The HTTP+JSON binding's errors: each {@link A2aError} as an HTTP status and a google.rpc.Code
 * name, and the error body. PROTOCOL (A2A §11.6): the body is a google.rpc.Status in its JSON form,
 * {@code {"error":{"code","status","message","details"}}}, {@code code} repeating the HTTP status and
 * {@code details} holding a google.rpc.ErrorInfo with the reason and the a2a-protocol.org domain.
 *
 * <p>The statuses are A2A 1.0.0's (§5.4's HTTP column): 409 for TaskNotCancelable, 415 for
 * ContentTypeNotSupported, 502 for InvalidAgentResponse, 404 for TaskNotFound and 400 for the rest.
 * A2A 1.0.1 (and @a2a-js/sdk 1.2.0) moved those three to 400, 400 and 500; Legate follows the 1.0.0
 * text, which the official TCK checks, because the SDK's clients choose the error class by the
 * ErrorInfo reason and never by the status (docs/peers.md §2a). A client classifies by the reason,
 * never the status alone: several errors share 400.
 *
 * <p>The body's {@code status} is the google.rpc.Code of the error (AIP-193, which §11.6 points to):
 * the code §5.4 gives the error on gRPC, so one error reads the same on both bindings, except where
 * that code's own HTTP meaning (google/rpc/code.proto) would contradict the status sent: §5.4 gives
 * PushNotificationNotSupported, UnsupportedOperation and VersionNotSupported UNIMPLEMENTED (HTTP 501)
 * on gRPC but 400 here, so here they are FAILED_PRECONDITION, the code.proto name of a 400 for a
 * request the server's state refuses (and the one A2A 1.0.1 gives them).
 */
final class RestErrors {
    private RestErrors() {
    }

    /** The HTTP status of an error on this binding. */
    static int httpStatus(A2aError error) {
        return switch (error) {
            case TASK_NOT_FOUND -> 404;
            // PROTOCOL (A2A §11.4): a path this binding does not have is 404 (405 for a wrong verb is the handler's).
            case METHOD_NOT_FOUND -> 404;
            case UNAUTHENTICATED -> 401;
            case INTERNAL -> 500;
            // PROTOCOL (A2A 1.0.0 §5.4): 409 Conflict, 415 Unsupported Media Type, 502 Bad Gateway (1.0.1: 400, 400, 500).
            case TASK_NOT_CANCELABLE -> 409;
            case CONTENT_TYPE_NOT_SUPPORTED -> 415;
            case INVALID_AGENT_RESPONSE -> 502;
            case PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, PUSH_NOTIFICATION_NOT_SUPPORTED, UNSUPPORTED_OPERATION,
                 EXTENDED_AGENT_CARD_NOT_CONFIGURED, EXTENSION_SUPPORT_REQUIRED, VERSION_NOT_SUPPORTED -> 400;
        };
    }

    /**
     * The google.rpc.Code name of an error, the body's {@code status}: A2A 1.0.0 §5.4's gRPC column,
     * but FAILED_PRECONDITION where that column says UNIMPLEMENTED (501) for an error answered with 400.
     */
    static String statusName(A2aError error) {
        return switch (error) {
            case TASK_NOT_FOUND -> "NOT_FOUND";
            case METHOD_NOT_FOUND -> "NOT_FOUND";
            case UNAUTHENTICATED -> "UNAUTHENTICATED";
            case INTERNAL, INVALID_AGENT_RESPONSE -> "INTERNAL";
            case PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS, CONTENT_TYPE_NOT_SUPPORTED -> "INVALID_ARGUMENT";
            case TASK_NOT_CANCELABLE, EXTENDED_AGENT_CARD_NOT_CONFIGURED, EXTENSION_SUPPORT_REQUIRED -> "FAILED_PRECONDITION";
            // UNIMPLEMENTED on gRPC (A2A 1.0.0 §5.4), whose HTTP mapping (501) is not the 400 these are answered with.
            case PUSH_NOTIFICATION_NOT_SUPPORTED, UNSUPPORTED_OPERATION, VERSION_NOT_SUPPORTED -> "FAILED_PRECONDITION";
        };
    }

    /** The body of {@code e} answered with HTTP {@code status} (which the edge may have made 413 or 503). */
    static String body(A2aException e, int status) {
        ObjectNode root = WireJson.mapper().createObjectNode();
        ObjectNode error = root.putObject("error");
        error.put("code", status);
        error.put("status", status == 503 ? "UNAVAILABLE" : statusName(e.error()));
        error.put("message", e.getMessage() == null ? "" : e.getMessage());
        ArrayNode details = error.putArray("details");
        // PEER (@a2a-js/sdk 1.2.0): every A2A error carries its ErrorInfo; a failure that is no A2A
        // error (an unknown path, an internal error) has an empty details list.
        String reason = e.error().reason();
        if (reason != null) {
            ObjectNode info = details.addObject();
            info.put("@type", A2aError.ERROR_INFO_TYPE);
            info.put("reason", reason);
            info.put("domain", A2aError.DOMAIN);
        }
        return WireJson.write(root);
    }
}
