package legate.acp.translate;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ListValue;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.Iterator;
import java.util.Map;

/**
 * ACP JSON carried inside A2A messages: the raw update under {@code metadata.acp} of a status
 * message, and data parts of the artifact, converted to protobuf's Struct and Value.
 *
 * <p>Why the tree is walked here instead of printed and parsed back through protobuf's JsonFormat:
 * every text frame of a turn carries metadata, so the conversion sits on the path of the first
 * frame. Bench workload 7 traced it as the largest step between reading the first chunk and
 * publishing its frame (0.1-0.5 ms warm, ~90 ms on a bridge's first turn while JsonFormat and Gson
 * load), and its code was still being compiled while the first measured turns ran.
 */
final class AcpMetadata {
    private AcpMetadata() {
    }

    /** {@code {"acp": raw}}: what a status message carries beside its readable text. */
    static Struct of(JsonNode raw) {
        return Struct.newBuilder().putFields("acp", value(raw)).build();
    }

    /** {@code {"acp": {"sessionUpdate": kind}}}: the metadata of coalesced text, built once per kind. */
    static Struct ofKind(String sessionUpdate) {
        Struct kind = Struct.newBuilder().putFields("sessionUpdate", Value.newBuilder().setStringValue(sessionUpdate).build())
                .build();
        return Struct.newBuilder().putFields("acp", Value.newBuilder().setStructValue(kind).build()).build();
    }

    /** The JSON value as protobuf's Value: numbers become doubles, as in protobuf's own JSON mapping. */
    static Value value(JsonNode json) {
        Value.Builder v = Value.newBuilder();
        if (json == null || json.isNull() || json.isMissingNode()) {
            v.setNullValue(NullValue.NULL_VALUE);
        } else if (json.isBoolean()) {
            v.setBoolValue(json.booleanValue());
        } else if (json.isNumber()) {
            v.setNumberValue(json.doubleValue());
        } else if (json.isTextual()) {
            v.setStringValue(json.textValue());
        } else if (json.isArray()) {
            ListValue.Builder list = ListValue.newBuilder();
            for (JsonNode item : json) {
                list.addValues(value(item));
            }
            v.setListValue(list);
        } else if (json.isObject()) {
            Struct.Builder struct = Struct.newBuilder();
            for (Iterator<Map.Entry<String, JsonNode>> it = json.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                struct.putFields(e.getKey(), value(e.getValue()));
            }
            v.setStructValue(struct);
        } else {
            // Binary or POJO nodes never come from parsed JSON; keep their text rather than drop them.
            v.setStringValue(json.asText());
        }
        return v.build();
    }
}
