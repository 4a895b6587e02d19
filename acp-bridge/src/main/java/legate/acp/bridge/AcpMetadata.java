package legate.acp.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;

/**
 * ACP JSON carried inside A2A messages: the raw update under {@code metadata.acp} of a status
 * message, and data parts of the artifact, converted to protobuf's Struct and Value.
 */
final class AcpMetadata {
    private AcpMetadata() {
    }

    /** {@code {"acp": raw}}: what a status message carries beside its readable text. */
    static Struct of(JsonNode raw) {
        return Struct.newBuilder().putFields("acp", value(raw)).build();
    }

    static Value value(JsonNode json) {
        Value.Builder v = Value.newBuilder();
        try {
            JsonFormat.parser().merge(json == null ? "null" : json.toString(), v);
        } catch (InvalidProtocolBufferException e) {
            v.setStringValue(String.valueOf(json));
        }
        return v.build();
    }
}
