package legate.a2a.server.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import legate.a2a.model.A2aError;
import legate.a2a.model.grpc.GrpcErrorMapping;
import legate.wire.jsonrpc.JsonRpcCodec;
import legate.wire.jsonrpc.JsonRpcError;
import legate.wire.jsonrpc.JsonRpcException;
import legate.wire.jsonrpc.JsonRpcMessage;

/**
 * What the instance that runs a conversation answered a forwarded call with, read back from its
 * JSON-RPC envelope: the result, or its error as the gRPC status this binding answers that error
 * with locally (A2A §10.6 through {@link GrpcErrorMapping}), so the caller cannot tell which
 * instance answered.
 */
final class ForwardedReply {
    private ForwardedReply() {
    }

    /**
     * The {@code result} of a JSON-RPC response envelope; {@code stopping}: the peer answered 503.
     *
     * @throws StatusRuntimeException the envelope's error as its gRPC status, or INTERNAL when the
     *     text is no JSON-RPC response
     */
    static JsonNode result(byte[] envelope, URI peer, boolean stopping) {
        JsonRpcMessage.Response response;
        try {
            response = JsonRpcCodec.toResponse(JsonRpcCodec.parseTree(envelope));
        } catch (JsonRpcException e) {
            throw GrpcErrorMapping.exception(A2aError.INTERNAL, "the instance that runs the conversation (" + peer
                    + ") answered with no JSON-RPC response: " + e.getMessage());
        }
        if (response.isError()) {
            throw status(response.error(), stopping);
        }
        return response.result();
    }

    /**
     * A JSON-RPC error as this binding's status. {@code stopping}: the peer is draining (HTTP 503),
     * answered UNAVAILABLE as a stopping instance answers locally, so the caller tries again.
     */
    static StatusRuntimeException status(JsonRpcError error, boolean stopping) {
        A2aError known = A2aError.byCode(error.code());
        A2aError a2a = known == null ? A2aError.INTERNAL : known;
        Status.Code code = stopping ? Status.Code.UNAVAILABLE : GrpcErrorMapping.codeOf(a2a);
        return GrpcErrorMapping.exception(a2a, code, error.message(), metadata(error.data()));
    }

    /** PROTOCOL (A2A §9.5): the ErrorInfo in {@code error.data} carries its metadata over to gRPC's. */
    private static Map<String, String> metadata(JsonNode data) {
        Map<String, String> metadata = new HashMap<>();
        if (data != null && data.isArray()) {
            for (JsonNode detail : data) {
                JsonNode m = detail.path("metadata");
                if (A2aError.ERROR_INFO_TYPE.equals(detail.path("@type").asText()) && m.isObject()) {
                    m.fields().forEachRemaining(f -> metadata.put(f.getKey(), f.getValue().asText()));
                }
            }
        }
        return metadata;
    }
}
