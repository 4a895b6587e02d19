package legate.a2a.model;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.ListValue;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one limit on how deep the free-form JSON of an A2A message may nest: the values of
 * {@code metadata}, a data part's {@code data} and every other {@code google.protobuf.Struct} or
 * {@code Value} field may hold at most {@link #MAX_DEPTH} levels of objects and arrays
 * ({@code {"a":1}} is one level, {@code {"a":[1]}} two).
 *
 * <p>Why this number: a task is stored as protobuf, and protobuf refuses to decode a message nested
 * more than 100 levels. Each JSON object costs three protobuf levels (Struct, its map entry,
 * Value), and the deepest place a caller's value is stored is a data part of a status message
 * inside a status update event, five messages down. Measured (NestingLimitCheckTest): 31 levels
 * decode there, 32 do not. 30 keeps one level spare, so whatever is accepted is stored and read
 * back by every store (memory, SQLite, PostgreSQL).
 *
 * <p>DEFECT: before this limit a SendMessage whose metadata nested 34 objects was accepted (the
 * JSON reader allows 64 levels), stored, and then never decoded again: GetTask and ListTasks
 * answered -32603, and a restart with the task WORKING exited 1.
 */
public final class NestingLimit {
    /** The most levels of objects and arrays a Struct or Value field may nest. */
    public static final int MAX_DEPTH = 30;

    /** Per message type: the message fields through which a Struct or Value can be reached. */
    private static final Map<Descriptor, List<FieldDescriptor>> CARRIERS = new ConcurrentHashMap<>();

    private NestingLimit() {
    }

    /**
     * Checks every Struct and Value field of {@code message}, however deep in it.
     *
     * @param path how the message is named in the error ("params", "" for none)
     * @throws A2aException INVALID_PARAMS naming the field that nests too deep and the limit
     */
    public static void check(MessageOrBuilder message, String path) {
        walk(message, path);
    }

    /** How many levels of objects and arrays {@code value} nests, counted up to {@code MAX_DEPTH + 1}. */
    public static int depth(Value value) {
        return depth(value, 0);
    }

    private static void walk(MessageOrBuilder m, String path) {
        for (FieldDescriptor f : carriers(m.getDescriptorForType())) {
            String at = path.isEmpty() ? f.getJsonName() : path + "." + f.getJsonName();
            if (f.isRepeated()) {
                int n = m.getRepeatedFieldCount(f);
                for (int i = 0; i < n; i++) {
                    visit(m.getRepeatedField(f, i), f, at + "[" + i + "]");
                }
            } else if (m.hasField(f)) {
                visit(m.getField(f), f, at);
            }
        }
    }

    private static void visit(Object v, FieldDescriptor f, String at) {
        int depth = switch (f.getMessageType().getFullName()) {
            case "google.protobuf.Struct" -> structDepth((Struct) v, 0);
            case "google.protobuf.Value" -> depth((Value) v, 0);
            case "google.protobuf.ListValue" -> listDepth((ListValue) v, 0);
            default -> {
                walk((MessageOrBuilder) v, at);
                yield 0;
            }
        };
        if (depth > MAX_DEPTH) {
            throw A2aError.INVALID_PARAMS.exception(at + " nests objects and arrays more than " + MAX_DEPTH
                    + " levels deep; metadata and data values may nest at most " + MAX_DEPTH
                    + " levels (a stored task could not be read back otherwise)");
        }
    }

    // Each level stops counting past the limit, so a hostile value costs no more than MAX_DEPTH + 1
    // frames of recursion whatever its depth.
    private static int depth(Value v, int above) {
        return switch (v.getKindCase()) {
            case STRUCT_VALUE -> structDepth(v.getStructValue(), above);
            case LIST_VALUE -> listDepth(v.getListValue(), above);
            case NULL_VALUE, NUMBER_VALUE, STRING_VALUE, BOOL_VALUE, KIND_NOT_SET -> 0;
        };
    }

    private static int structDepth(Struct s, int above) {
        if (above >= MAX_DEPTH) {
            return 1;
        }
        int deepest = 0;
        for (Value child : s.getFieldsMap().values()) {
            deepest = Math.max(deepest, depth(child, above + 1));
            if (above + 1 + deepest > MAX_DEPTH) {
                break;
            }
        }
        return 1 + deepest;
    }

    private static int listDepth(ListValue l, int above) {
        if (above >= MAX_DEPTH) {
            return 1;
        }
        int deepest = 0;
        for (Value child : l.getValuesList()) {
            deepest = Math.max(deepest, depth(child, above + 1));
            if (above + 1 + deepest > MAX_DEPTH) {
                break;
            }
        }
        return 1 + deepest;
    }

    private static List<FieldDescriptor> carriers(Descriptor d) {
        List<FieldDescriptor> known = CARRIERS.get(d);
        if (known != null) {
            return known;
        }
        List<FieldDescriptor> out = new ArrayList<>();
        for (FieldDescriptor f : d.getFields()) {
            if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && reaches(f.getMessageType(), new HashSet<>())) {
                out.add(f);
            }
        }
        List<FieldDescriptor> fixed = List.copyOf(out);
        CARRIERS.put(d, fixed);
        return fixed;
    }

    private static boolean reaches(Descriptor d, Set<Descriptor> seen) {
        if (d.getFile().getPackage().equals("google.protobuf")) {
            return d.getFullName().equals("google.protobuf.Struct") || d.getFullName().equals("google.protobuf.Value")
                    || d.getFullName().equals("google.protobuf.ListValue");
        }
        if (!seen.add(d)) {
            return false;
        }
        for (FieldDescriptor f : d.getFields()) {
            if (f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && reaches(f.getMessageType(), seen)) {
                return true;
            }
        }
        return false;
    }
}
