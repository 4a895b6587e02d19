package legate.a2a.server.v03;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ListValue;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.Map;

/**
 * A JSON value as the v1.0 model holds it ({@code google.protobuf.Value} and {@code Struct}: a
 * part's {@code data}, every {@code metadata}) and as a v0.3 peer writes it (plain JSON), each
 * into the other. ProtoJSON and v0.3 agree on these values byte for byte, except that a protobuf
 * number is a double: an integral number within 2^53 is written back without a fraction.
 */
final class StructJson {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final double EXACT = 9_007_199_254_740_992d;

    private StructJson() {
    }

    static Value value(JsonNode json) {
        return switch (json.getNodeType()) {
            case NULL, MISSING -> Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build();
            case BOOLEAN -> Value.newBuilder().setBoolValue(json.booleanValue()).build();
            case NUMBER -> Value.newBuilder().setNumberValue(json.doubleValue()).build();
            case STRING, BINARY, POJO -> Value.newBuilder().setStringValue(json.asText()).build();
            case ARRAY -> {
                ListValue.Builder list = ListValue.newBuilder();
                json.forEach(e -> list.addValues(value(e)));
                yield Value.newBuilder().setListValue(list).build();
            }
            case OBJECT -> Value.newBuilder().setStructValue(struct((ObjectNode) json)).build();
        };
    }

    static Struct struct(ObjectNode json) {
        Struct.Builder s = Struct.newBuilder();
        json.properties().forEach(e -> s.putFields(e.getKey(), value(e.getValue())));
        return s.build();
    }

    static JsonNode json(Value value) {
        return switch (value.getKindCase()) {
            case NULL_VALUE, KIND_NOT_SET -> JSON.nullNode();
            case BOOL_VALUE -> JSON.booleanNode(value.getBoolValue());
            case NUMBER_VALUE -> number(value.getNumberValue());
            case STRING_VALUE -> JSON.textNode(value.getStringValue());
            case LIST_VALUE -> {
                ArrayNode array = JSON.arrayNode();
                value.getListValue().getValuesList().forEach(v -> array.add(json(v)));
                yield array;
            }
            case STRUCT_VALUE -> json(value.getStructValue());
        };
    }

    static ObjectNode json(Struct struct) {
        ObjectNode out = JSON.objectNode();
        for (Map.Entry<String, Value> e : struct.getFieldsMap().entrySet()) {
            out.set(e.getKey(), json(e.getValue()));
        }
        return out;
    }

    private static JsonNode number(double d) {
        if (d == Math.rint(d) && Math.abs(d) <= EXACT) {
            long l = (long) d;
            return l == (int) l ? JSON.numberNode((int) l) : JSON.numberNode(l);
        }
        return JSON.numberNode(d);
    }
}
