package legate.mcp.tool;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.google.protobuf.MessageOrBuilder;
import java.util.Map;
import legate.a2a.model.ProtoJson;
import legate.wire.json.WireJson;

/**
 * An A2A object (card, artifact, message) as the plain JSON object MCP's {@code structuredContent}
 * carries: its ProtoJSON, the A2A wire form, so a data part reaches the caller field for field.
 */
final class StructuredJson {
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {
    };

    private StructuredJson() {
    }

    static Map<String, Object> of(MessageOrBuilder a2aObject) {
        try {
            return WireJson.mapper().readValue(ProtoJson.print(a2aObject), MAP);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("ProtoJSON printed something that is not a JSON object", e);
        }
    }
}
