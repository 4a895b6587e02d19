package legate.a2a.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.ListValue;
import com.google.protobuf.Message;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.google.protobuf.util.Timestamps;
import java.text.ParseException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A ProtoJSON reader (A2A §5.5-5.7; the proto3 JSON mapping), the mirror of {@link ProtoJsonWriter}:
 * JSON already parsed into a Jackson tree (the server's params, the client's results and cards)
 * goes straight into a protobuf builder, with the same leniency as {@link ProtoJson#parse}: unknown
 * fields ignored, JSON and proto field names both accepted, an unknown enum name leaves the
 * default, enums also by number, 64-bit integers as strings or numbers, {@code null} meaning absent.
 * What JsonFormat refuses, this refuses too, as INVALID_PARAMS naming the field.
 *
 * <p>Why not print the tree back to text for JsonFormat: on the SendMessage path that round trip
 * (tree to string, string to Gson tree, Gson tree to builder) was a fifth of the server's CPU.
 * The other well-known types (Any, Duration, FieldMask, the wrappers; a2a.proto uses none of
 * them) still go through JsonFormat, by text.
 */
final class ProtoJsonReader {
    private static final Map<Descriptor, Map<String, FieldDescriptor>> NAMES = new ConcurrentHashMap<>();

    private ProtoJsonReader() {
    }

    /**
     * @param member what the JSON is, named in error messages ("params", "result")
     * @throws A2aException INVALID_PARAMS naming the field and what was wrong
     */
    static <B extends Message.Builder> B read(JsonNode json, String member, B builder) {
        try {
            object(json, builder, member);
            return builder;
        } catch (Invalid e) {
            throw A2aError.INVALID_PARAMS.exception("invalid " + builder.getDescriptorForType().getName() + ": " + e.getMessage());
        }
    }

    private static void object(JsonNode json, Message.Builder b, String path) throws Invalid {
        Descriptor d = b.getDescriptorForType();
        switch (d.getFullName()) {
            case "google.protobuf.Struct" -> {
                b.mergeFrom(struct(json, path));
                return;
            }
            case "google.protobuf.Value" -> {
                b.mergeFrom(value(json, path));
                return;
            }
            case "google.protobuf.ListValue" -> {
                b.mergeFrom(list(json, path));
                return;
            }
            case "google.protobuf.Timestamp" -> {
                if (!json.isTextual()) {
                    throw new Invalid(path + ": expected an RFC 3339 timestamp string");
                }
                try {
                    b.mergeFrom(Timestamps.parse(json.textValue()));
                } catch (ParseException e) {
                    throw new Invalid(path + ": not an RFC 3339 timestamp: " + json.textValue());
                }
                return;
            }
            case "google.protobuf.Empty" -> {
                if (!json.isObject()) {
                    throw new Invalid(path + ": expected an object, got " + kind(json));
                }
                return;
            }
            default -> {
                if (d.getFile().getPackage().equals("google.protobuf")) {
                    ProtoJson.parse(json.toString(), b);
                    return;
                }
            }
        }
        if (!json.isObject()) {
            throw new Invalid(path + ": expected an object, got " + kind(json));
        }
        Map<String, FieldDescriptor> names = NAMES.computeIfAbsent(d, ProtoJsonReader::names);
        Iterator<Map.Entry<String, JsonNode>> it = json.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            FieldDescriptor f = names.get(e.getKey());
            JsonNode v = e.getValue();
            // PROTOCOL (A2A §5.7): unknown fields are ignored; null means absent (except in a Value).
            if (f == null || (v.isNull() && !isValue(f))) {
                continue;
            }
            String at = path + "." + e.getKey();
            if (f.getRealContainingOneof() != null && b.hasOneof(f.getRealContainingOneof())) {
                throw new Invalid(at + ": more than one member of oneof " + f.getRealContainingOneof().getName());
            }
            if (f.isMapField()) {
                map(v, b, f, at);
            } else if (f.isRepeated()) {
                if (!v.isArray()) {
                    throw new Invalid(at + ": expected an array, got " + kind(v));
                }
                for (int i = 0; i < v.size(); i++) {
                    Object item = single(v.get(i), b, f, at + "[" + i + "]");
                    if (item != null) {
                        b.addRepeatedField(f, item);
                    }
                }
            } else {
                Object item = single(v, b, f, at);
                if (item != null) {
                    b.setField(f, item);
                }
            }
        }
    }

    private static Object single(JsonNode v, Message.Builder parent, FieldDescriptor f, String at) throws Invalid {
        switch (f.getJavaType()) {
            case MESSAGE -> {
                Message.Builder sub = parent.newBuilderForField(f);
                object(v, sub, at);
                return sub.build();
            }
            case STRING -> {
                if (v.isTextual()) {
                    return text(v.textValue(), at);
                }
                if (v.isNumber() || v.isBoolean()) {
                    return v.asText();
                }
                throw new Invalid(at + ": expected a string, got " + kind(v));
            }
            case INT -> {
                long l = integral(v, at);
                boolean unsigned = f.getType() == FieldDescriptor.Type.UINT32 || f.getType() == FieldDescriptor.Type.FIXED32;
                if (unsigned ? (l < 0 || l > 0xFFFFFFFFL) : (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE)) {
                    throw new Invalid(at + ": out of range for a 32-bit integer");
                }
                return (int) l;
            }
            case LONG -> {
                return integral(v, at);
            }
            case DOUBLE -> {
                return floating(v, at);
            }
            case FLOAT -> {
                return (float) floating(v, at);
            }
            case BOOLEAN -> {
                if (v.isBoolean()) {
                    return v.booleanValue();
                }
                if (v.isTextual() && (v.textValue().equals("true") || v.textValue().equals("false"))) {
                    return Boolean.parseBoolean(v.textValue());
                }
                throw new Invalid(at + ": expected true or false, got " + kind(v));
            }
            case BYTE_STRING -> {
                if (!v.isTextual()) {
                    throw new Invalid(at + ": expected base64 text, got " + kind(v));
                }
                try {
                    String s = v.textValue();
                    return ByteString.copyFrom(s.indexOf('-') >= 0 || s.indexOf('_') >= 0
                            ? Base64.getUrlDecoder().decode(s) : Base64.getDecoder().decode(s));
                } catch (IllegalArgumentException e) {
                    throw new Invalid(at + ": not base64");
                }
            }
            case ENUM -> {
                if (v.isTextual()) {
                    // An enum name this build does not know leaves the field at its default.
                    return f.getEnumType().findValueByName(v.textValue());
                }
                if (v.isIntegralNumber()) {
                    EnumValueDescriptor e = f.getEnumType().findValueByNumberCreatingIfUnknown(v.intValue());
                    return e;
                }
                throw new Invalid(at + ": expected an enum name, got " + kind(v));
            }
        }
        throw new Invalid(at + ": unsupported field type");
    }

    private static void map(JsonNode v, Message.Builder b, FieldDescriptor f, String at) throws Invalid {
        if (!v.isObject()) {
            throw new Invalid(at + ": expected an object, got " + kind(v));
        }
        FieldDescriptor keyField = f.getMessageType().findFieldByNumber(1);
        FieldDescriptor valueField = f.getMessageType().findFieldByNumber(2);
        Iterator<Map.Entry<String, JsonNode>> it = v.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            Message.Builder entry = b.newBuilderForField(f);
            if (keyField.getJavaType() != FieldDescriptor.JavaType.STRING) {
                throw new Invalid(at + ": only string map keys are read here");
            }
            entry.setField(keyField, text(e.getKey(), at));
            Object value = single(e.getValue(), entry, valueField, at + "." + e.getKey());
            if (value != null) {
                entry.setField(valueField, value);
            }
            b.addRepeatedField(f, entry.build());
        }
    }

    private static long integral(JsonNode v, String at) throws Invalid {
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            return v.longValue();
        }
        if (v.isNumber() && v.doubleValue() == Math.rint(v.doubleValue())) {
            return (long) v.doubleValue();
        }
        if (v.isTextual()) {
            try {
                return Long.parseLong(v.textValue().trim());
            } catch (NumberFormatException e) {
                throw new Invalid(at + ": not an integer: " + v.textValue());
            }
        }
        throw new Invalid(at + ": expected an integer, got " + kind(v));
    }

    private static double floating(JsonNode v, String at) throws Invalid {
        if (v.isNumber()) {
            return v.doubleValue();
        }
        if (v.isTextual()) {
            switch (v.textValue()) {
                case "NaN" -> {
                    return Double.NaN;
                }
                case "Infinity" -> {
                    return Double.POSITIVE_INFINITY;
                }
                case "-Infinity" -> {
                    return Double.NEGATIVE_INFINITY;
                }
                default -> {
                    try {
                        return Double.parseDouble(v.textValue());
                    } catch (NumberFormatException e) {
                        throw new Invalid(at + ": not a number: " + v.textValue());
                    }
                }
            }
        }
        throw new Invalid(at + ": expected a number, got " + kind(v));
    }

    private static Struct struct(JsonNode v, String at) throws Invalid {
        if (!v.isObject()) {
            throw new Invalid(at + ": expected an object, got " + kind(v));
        }
        Struct.Builder s = Struct.newBuilder();
        Iterator<Map.Entry<String, JsonNode>> it = v.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            s.putFields(text(e.getKey(), at), value(e.getValue(), at + "." + e.getKey()));
        }
        return s.build();
    }

    private static ListValue list(JsonNode v, String at) throws Invalid {
        if (!v.isArray()) {
            throw new Invalid(at + ": expected an array, got " + kind(v));
        }
        ListValue.Builder l = ListValue.newBuilder();
        for (int i = 0; i < v.size(); i++) {
            l.addValues(value(v.get(i), at + "[" + i + "]"));
        }
        return l.build();
    }

    private static Value value(JsonNode v, String at) throws Invalid {
        Value.Builder b = Value.newBuilder();
        if (v.isNull()) {
            b.setNullValue(NullValue.NULL_VALUE);
        } else if (v.isBoolean()) {
            b.setBoolValue(v.booleanValue());
        } else if (v.isNumber()) {
            b.setNumberValue(v.doubleValue());
        } else if (v.isTextual()) {
            b.setStringValue(text(v.textValue(), at));
        } else if (v.isArray()) {
            b.setListValue(list(v, at));
        } else {
            b.setStructValue(struct(v, at));
        }
        return b.build();
    }

    /**
     * A string as protobuf can keep it. JSON's \\u escapes can spell half of a surrogate pair,
     * which is no Unicode text: protobuf stores it as "?", so what was accepted would not be what a
     * store gives back (found by ProtoJsonReaderFuzzTest, docs/fuzzing.md). Refused instead.
     */
    private static String text(String s, String at) throws Invalid {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    throw new Invalid(at + ": not Unicode text (an unpaired surrogate \\u"
                            + Integer.toHexString(c).toUpperCase(Locale.ROOT) + " at character " + i + ")");
                }
            }
        }
        return s;
    }

    private static boolean isValue(FieldDescriptor f) {
        return f.getJavaType() == FieldDescriptor.JavaType.MESSAGE
                && f.getMessageType().getFullName().equals("google.protobuf.Value");
    }

    private static Map<String, FieldDescriptor> names(Descriptor d) {
        Map<String, FieldDescriptor> m = new HashMap<>();
        for (FieldDescriptor f : d.getFields()) {
            m.put(f.getName(), f);
            m.put(f.getJsonName(), f);
        }
        return Map.copyOf(m);
    }

    private static String kind(JsonNode v) {
        return v.getNodeType().name().toLowerCase(Locale.ROOT);
    }

    /** A field that cannot be read; the message names where and why. */
    private static final class Invalid extends Exception {
        Invalid(String message) {
            super(message, null, false, false);
        }
    }
}
