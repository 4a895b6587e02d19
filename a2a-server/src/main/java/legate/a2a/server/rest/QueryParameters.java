package legate.a2a.server.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.List;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aHeaders;
import legate.a2a.model.ProtoJson;
import legate.wire.json.WireJson;
import org.eclipse.jetty.util.Fields;

/**
 * The query of a GET as the request message it stands for. PROTOCOL (A2A §11.2, AIP-127): each
 * field of the request that is not in the path travels as a query parameter of its JSON name
 * (camelCase; the proto's snake_case name is accepted too): numbers and booleans as their text,
 * enums by their full name ({@code status=TASK_STATE_WORKING}), timestamps as RFC 3339, a repeated
 * field repeated or comma-joined. A parameter that names no field is ignored (§5.7), A2A-Version
 * among them.
 */
final class QueryParameters {
    private QueryParameters() {
    }

    /**
     * Reads {@code query} into {@code builder}.
     *
     * @throws legate.a2a.model.A2aException INVALID_PARAMS naming the parameter whose value is not of its field's type
     */
    static <B extends Message.Builder> B read(Fields query, B builder) {
        Descriptor type = builder.getDescriptorForType();
        ObjectNode json = WireJson.mapper().createObjectNode();
        for (Fields.Field param : query) {
            if (param.getName().equalsIgnoreCase(A2aHeaders.VERSION)) {
                continue;
            }
            FieldDescriptor field = fieldNamed(type, param.getName());
            if (field == null) {
                continue;
            }
            List<String> values = param.getValues();
            if (field.isRepeated()) {
                ArrayNode list = json.putArray(field.getJsonName());
                for (String v : values) {
                    for (String item : v.split(",")) {
                        list.add(item);
                    }
                }
                continue;
            }
            String value = values.get(values.size() - 1);
            switch (field.getJavaType()) {
                case INT, LONG -> json.put(field.getJsonName(), integer(param.getName(), value));
                case BOOLEAN -> json.put(field.getJsonName(), bool(param.getName(), value));
                case FLOAT, DOUBLE -> json.put(field.getJsonName(), decimal(param.getName(), value));
                case ENUM -> json.put(field.getJsonName(), enumName(field, param.getName(), value));
                case STRING, MESSAGE, BYTE_STRING -> json.put(field.getJsonName(), value);
            }
        }
        return ProtoJson.read(json, "query", builder);
    }

    private static FieldDescriptor fieldNamed(Descriptor type, String name) {
        for (FieldDescriptor f : type.getFields()) {
            if (f.getJsonName().equals(name) || f.getName().equals(name)) {
                return f;
            }
        }
        return null;
    }

    /**
     * A filter the server would read as "none" must not pass unnoticed: an enum name this build
     * does not know (PEER @a2a-js/sdk 1.2.0: {@code status=working}, the v0.3 spelling, is 400 there too).
     */
    private static String enumName(FieldDescriptor field, String name, String value) {
        if (field.getEnumType().findValueByName(value.strip()) == null) {
            throw A2aError.INVALID_PARAMS.exception("query parameter " + name + " must be a "
                    + field.getEnumType().getName() + " name such as " + field.getEnumType().getValues().get(1).getName()
                    + ", got \"" + value + "\"");
        }
        return value.strip();
    }

    private static long integer(String name, String value) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw A2aError.INVALID_PARAMS.exception("query parameter " + name + " must be an integer, got \""
                    + value + "\"");
        }
    }

    private static double decimal(String name, String value) {
        try {
            return Double.parseDouble(value.strip());
        } catch (NumberFormatException e) {
            throw A2aError.INVALID_PARAMS.exception("query parameter " + name + " must be a number, got \"" + value + "\"");
        }
    }

    private static boolean bool(String name, String value) {
        return switch (value.strip()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw A2aError.INVALID_PARAMS.exception("query parameter " + name
                    + " must be true or false, got \"" + value + "\"");
        };
    }
}
