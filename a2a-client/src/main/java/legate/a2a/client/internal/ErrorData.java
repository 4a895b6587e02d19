package legate.a2a.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import legate.a2a.client.AgentErrorException;
import legate.a2a.client.ErrorInfo;
import legate.wire.jsonrpc.JsonRpcError;

/**
 * Reads the {@code error} of an A2A JSON-RPC response. PROTOCOL (A2A §9.5): {@code error.data} is
 * an array of objects each with an {@code @type}, one of them a google.rpc.ErrorInfo with the
 * reason. Read leniently: a single object instead of an array, or a detail without {@code @type}
 * that still has a reason, is accepted; no data at all is fine too.
 */
final class ErrorData {
    private static final String ERROR_INFO_SUFFIX = "google.rpc.ErrorInfo";

    private ErrorData() {
    }

    static AgentErrorException exception(JsonRpcError error) {
        return new AgentErrorException(error.code(), error.message(), errorInfo(error.data()));
    }

    /** The ErrorInfo among an error's details (JSON-RPC {@code data}, REST {@code details}), or null. */
    static ErrorInfo errorInfo(JsonNode data) {
        if (data == null || data.isNull()) {
            return null;
        }
        if (data.isObject()) {
            return read(data);
        }
        ErrorInfo fallback = null;
        if (data.isArray()) {
            for (JsonNode detail : data) {
                if (!detail.isObject()) {
                    continue;
                }
                String type = detail.path("@type").asText("");
                if (type.endsWith(ERROR_INFO_SUFFIX)) {
                    return read(detail);
                }
                if (fallback == null && detail.path("reason").isTextual()) {
                    fallback = read(detail);
                }
            }
        }
        return fallback;
    }

    private static ErrorInfo read(JsonNode detail) {
        Map<String, String> metadata = new LinkedHashMap<>();
        JsonNode m = detail.get("metadata");
        if (m != null && m.isObject()) {
            m.properties().forEach(e -> metadata.put(e.getKey(), e.getValue().asText()));
        }
        if (!detail.path("reason").isTextual() && metadata.isEmpty()) {
            return null;
        }
        return new ErrorInfo(detail.path("reason").asText(""), detail.path("domain").asText(""), metadata);
    }
}
