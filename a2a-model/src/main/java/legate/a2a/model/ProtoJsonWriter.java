package legate.a2a.model;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.ListValueOrBuilder;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.StructOrBuilder;
import com.google.protobuf.TimestampOrBuilder;
import com.google.protobuf.Value;
import com.google.protobuf.ValueOrBuilder;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import lf.a2a.v1.Task;

/**
 * A ProtoJSON printer (A2A §5.5; the proto3 JSON mapping) that walks the generated descriptors and
 * appends to a StringBuilder, for the hot path of every response and SSE frame.
 *
 * <p>Why not JsonFormat there: it reads each message through a sorted map, escapes every string
 * through a new Gson writer, and formats timestamps with a per-thread SimpleDateFormat; with a
 * virtual thread per request that cache is rebuilt for every request and kept for every held
 * stream (the held-streams benchmark found ~10 KB a stream in DecimalFormat and char arrays).
 *
 * <p>Output differs from JsonFormat only where JSON does not care: integral doubles print without
 * ".0" (as JavaScript prints them), and only the characters JSON requires are escaped. Well-known
 * types other than Timestamp, Struct, Value, ListValue and Empty fall back to JsonFormat.
 */
final class ProtoJsonWriter {
    private static final JsonFormat.Printer FALLBACK = JsonFormat.printer().omittingInsignificantWhitespace();
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final FieldDescriptor TASK_ARTIFACTS = Task.getDescriptor().findFieldByNumber(Task.ARTIFACTS_FIELD_NUMBER);

    private final Set<FieldDescriptor> alwaysPrint;
    private final HotTypeWriter hot;

    ProtoJsonWriter(Set<FieldDescriptor> alwaysPrint) {
        this(alwaysPrint, true);
    }

    /**
     * @param hotTypes false walks every message by its descriptor, the hot types too, so a test can
     *     hold both ways of printing them to JsonFormat
     */
    ProtoJsonWriter(Set<FieldDescriptor> alwaysPrint, boolean hotTypes) {
        this.alwaysPrint = alwaysPrint;
        this.hot = hotTypes ? new HotTypeWriter(this, alwaysPrint.contains(TASK_ARTIFACTS)) : null;
    }

    void write(MessageOrBuilder m, StringBuilder out) {
        if (hot != null && hot.tryWrite(m, out)) {
            return;
        }
        Descriptor d = m.getDescriptorForType();
        switch (d.getFullName()) {
            case "google.protobuf.Timestamp" -> timestamp((TimestampOrBuilder) m, out);
            case "google.protobuf.Struct" -> struct((StructOrBuilder) m, out);
            case "google.protobuf.Value" -> value((ValueOrBuilder) m, out);
            case "google.protobuf.ListValue" -> list((ListValueOrBuilder) m, out);
            case "google.protobuf.Empty" -> out.append("{}");
            default -> {
                if (d.getFile().getPackage().equals("google.protobuf")) {
                    fallback(m, out);
                } else {
                    object(m, d, out);
                }
            }
        }
    }

    private void object(MessageOrBuilder m, Descriptor d, StringBuilder out) {
        out.append('{');
        boolean first = true;
        for (FieldDescriptor f : d.getFields()) {
            boolean forced = alwaysPrint.contains(f);
            if (f.isRepeated()) {
                int n = m.getRepeatedFieldCount(f);
                if (n == 0 && !forced) {
                    continue;
                }
                first = key(f, first, out);
                if (f.isMapField()) {
                    map(m, f, n, out);
                } else {
                    out.append('[');
                    for (int i = 0; i < n; i++) {
                        if (i > 0) {
                            out.append(',');
                        }
                        scalar(f, m.getRepeatedField(f, i), out);
                    }
                    out.append(']');
                }
            } else if (f.hasPresence()) {
                if (!m.hasField(f)) {
                    continue;
                }
                first = key(f, first, out);
                scalar(f, m.getField(f), out);
            } else {
                Object v = m.getField(f);
                if (!forced && isDefault(f, v)) {
                    continue;
                }
                first = key(f, first, out);
                scalar(f, v, out);
            }
        }
        out.append('}');
    }

    private static boolean key(FieldDescriptor f, boolean first, StringBuilder out) {
        if (!first) {
            out.append(',');
        }
        out.append('"').append(f.getJsonName()).append("\":");
        return false;
    }

    private void map(MessageOrBuilder m, FieldDescriptor f, int n, StringBuilder out) {
        FieldDescriptor keyField = f.getMessageType().findFieldByNumber(1);
        FieldDescriptor valueField = f.getMessageType().findFieldByNumber(2);
        out.append('{');
        for (int i = 0; i < n; i++) {
            Message entry = (Message) m.getRepeatedField(f, i);
            if (i > 0) {
                out.append(',');
            }
            // PROTOCOL (proto3 JSON): map keys are always strings.
            string(String.valueOf(entry.getField(keyField)), out);
            out.append(':');
            scalar(valueField, entry.getField(valueField), out);
        }
        out.append('}');
    }

    private void scalar(FieldDescriptor f, Object v, StringBuilder out) {
        switch (f.getJavaType()) {
            case INT -> {
                int i = (Integer) v;
                boolean unsigned = f.getType() == FieldDescriptor.Type.UINT32 || f.getType() == FieldDescriptor.Type.FIXED32;
                out.append(unsigned ? Integer.toUnsignedString(i) : Integer.toString(i));
            }
            case LONG -> {
                // PROTOCOL (proto3 JSON): 64-bit integers are strings, JavaScript numbers cannot hold them.
                long l = (Long) v;
                boolean unsigned = f.getType() == FieldDescriptor.Type.UINT64 || f.getType() == FieldDescriptor.Type.FIXED64;
                out.append('"').append(unsigned ? Long.toUnsignedString(l) : Long.toString(l)).append('"');
            }
            case FLOAT -> number(((Float) v).doubleValue(), out);
            case DOUBLE -> number((Double) v, out);
            case BOOLEAN -> out.append(((Boolean) v) ? "true" : "false");
            case STRING -> string((String) v, out);
            case BYTE_STRING -> out.append('"').append(Base64.getEncoder().encodeToString(((ByteString) v).toByteArray())).append('"');
            case ENUM -> {
                EnumValueDescriptor e = (EnumValueDescriptor) v;
                if (e.getType().getFullName().equals("google.protobuf.NullValue")) {
                    out.append("null");
                } else if (e.getIndex() < 0 || e.getType().findValueByNumber(e.getNumber()) == null) {
                    out.append(e.getNumber());
                } else {
                    out.append('"').append(e.getName()).append('"');
                }
            }
            case MESSAGE -> write((MessageOrBuilder) v, out);
        }
    }

    private static boolean isDefault(FieldDescriptor f, Object v) {
        return switch (f.getJavaType()) {
            case INT -> (Integer) v == 0;
            case LONG -> (Long) v == 0L;
            case FLOAT -> Float.floatToRawIntBits((Float) v) == 0;
            case DOUBLE -> Double.doubleToRawLongBits((Double) v) == 0;
            case BOOLEAN -> !(Boolean) v;
            case STRING -> ((String) v).isEmpty();
            case BYTE_STRING -> ((ByteString) v).isEmpty();
            case ENUM -> ((EnumValueDescriptor) v).getNumber() == 0;
            case MESSAGE -> false;
        };
    }

    static void number(double d, StringBuilder out) {
        if (Double.isNaN(d)) {
            out.append("\"NaN\"");
        } else if (Double.isInfinite(d)) {
            out.append(d > 0 ? "\"Infinity\"" : "\"-Infinity\"");
        } else if (d == Math.rint(d) && Math.abs(d) < 9.007199254740992E15) {
            // An integral value prints as JavaScript prints it: 6, not 6.0.
            out.append((long) d);
        } else {
            out.append(d);
        }
    }

    static void string(String s, StringBuilder out) {
        out.append('"');
        int start = 0;
        int len = s.length();
        for (int i = 0; i < len; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\' && c != '\u2028' && c != '\u2029') {
                continue;
            }
            out.append(s, start, i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> out.append("\\u").append(HEX[c >> 12 & 0xf]).append(HEX[c >> 8 & 0xf])
                        .append(HEX[c >> 4 & 0xf]).append(HEX[c & 0xf]);
            }
            start = i + 1;
        }
        out.append(s, start, len).append('"');
    }

    /** PROTOCOL (proto3 JSON): RFC 3339 in UTC with "Z", with 0, 3, 6 or 9 fractional digits. */
    static void timestamp(TimestampOrBuilder t, StringBuilder out) {
        LocalDateTime dt = LocalDateTime.ofEpochSecond(t.getSeconds(), 0, ZoneOffset.UTC);
        out.append('"');
        pad(dt.getYear(), 4, out).append('-');
        pad(dt.getMonthValue(), 2, out).append('-');
        pad(dt.getDayOfMonth(), 2, out).append('T');
        pad(dt.getHour(), 2, out).append(':');
        pad(dt.getMinute(), 2, out).append(':');
        pad(dt.getSecond(), 2, out);
        int nanos = t.getNanos();
        if (nanos != 0) {
            out.append('.');
            if (nanos % 1_000_000 == 0) {
                pad(nanos / 1_000_000, 3, out);
            } else if (nanos % 1_000 == 0) {
                pad(nanos / 1_000, 6, out);
            } else {
                pad(nanos, 9, out);
            }
        }
        out.append("Z\"");
    }

    private static StringBuilder pad(int v, int width, StringBuilder out) {
        String s = Integer.toString(v);
        for (int i = s.length(); i < width; i++) {
            out.append('0');
        }
        return out.append(s);
    }

    private void struct(StructOrBuilder s, StringBuilder out) {
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, Value> e : s.getFieldsMap().entrySet()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            string(e.getKey(), out);
            out.append(':');
            value(e.getValue(), out);
        }
        out.append('}');
    }

    private void value(ValueOrBuilder v, StringBuilder out) {
        switch (v.getKindCase()) {
            case NULL_VALUE, KIND_NOT_SET -> out.append("null");
            case NUMBER_VALUE -> number(v.getNumberValue(), out);
            case STRING_VALUE -> string(v.getStringValue(), out);
            case BOOL_VALUE -> out.append(v.getBoolValue() ? "true" : "false");
            case STRUCT_VALUE -> struct(v.getStructValue(), out);
            case LIST_VALUE -> list(v.getListValue(), out);
        }
    }

    private void list(ListValueOrBuilder l, StringBuilder out) {
        out.append('[');
        List<Value> values = l.getValuesList();
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            value(values.get(i), out);
        }
        out.append(']');
    }

    private static void fallback(MessageOrBuilder m, StringBuilder out) {
        try {
            FALLBACK.appendTo(m, out);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("cannot print " + m.getDescriptorForType().getFullName(), e);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
