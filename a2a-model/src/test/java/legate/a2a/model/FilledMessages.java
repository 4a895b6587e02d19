package legate.a2a.model;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.ListValue;
import com.google.protobuf.Message;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Messages of every type a proto file declares, built from its descriptors alone: each field set to
 * a value that is not its default, recursively, so a field added to the proto is filled the day it
 * is added. A type with oneofs comes once per oneof member (the other oneofs at their first member);
 * a repeated message field holds one element per such variant of its element type, so a oneof
 * inside a list (a Part in a Message) is seen in every case too. Each type also comes once with
 * every field that has presence set to its default, which ProtoJSON still prints.
 *
 * <p>Strings carry what JSON must escape, bytes what base64 turns into {@code +} and {@code /},
 * integers their sign and width. A field type without a value here fails loudly.
 */
final class FilledMessages {
    /** One built message and what it shows, for the test's name. */
    record Filled(String label, Message message) {
        @Override
        public String toString() {
            return label;
        }
    }

    private FilledMessages() {
    }

    /** Every message type of {@code file}, nested ones included, map entries excepted. */
    static List<Filled> of(FileDescriptor file) {
        List<Filled> all = new ArrayList<>();
        for (Descriptor d : types(file.getMessageTypes(), new ArrayList<>())) {
            for (Map<OneofDescriptor, FieldDescriptor> choice : choices(d)) {
                all.add(new Filled(label(d, choice, ""), build(d, choice, Set.of(d))));
                Message atDefault = atDefault(d, choice);
                if (!atDefault.equals(atDefault.getDefaultInstanceForType())) {
                    all.add(new Filled(label(d, choice, " present at default"), atDefault));
                }
            }
        }
        return all;
    }

    private static List<Descriptor> types(List<Descriptor> declared, List<Descriptor> into) {
        for (Descriptor d : declared) {
            if (!d.getOptions().getMapEntry()) {
                into.add(d);
                types(d.getNestedTypes(), into);
            }
        }
        return into;
    }

    /** The first member of every oneof, then each other member in turn. */
    private static List<Map<OneofDescriptor, FieldDescriptor>> choices(Descriptor d) {
        Map<OneofDescriptor, FieldDescriptor> first = new LinkedHashMap<>();
        for (OneofDescriptor o : d.getRealOneofs()) {
            first.put(o, o.getField(0));
        }
        List<Map<OneofDescriptor, FieldDescriptor>> all = new ArrayList<>();
        all.add(first);
        for (OneofDescriptor o : d.getRealOneofs()) {
            for (int i = 1; i < o.getFieldCount(); i++) {
                Map<OneofDescriptor, FieldDescriptor> other = new LinkedHashMap<>(first);
                other.put(o, o.getField(i));
                all.add(other);
            }
        }
        return all;
    }

    private static String label(Descriptor d, Map<OneofDescriptor, FieldDescriptor> choice, String suffix) {
        return d.getName() + (choice.isEmpty() ? "" : choice.values().stream().map(FieldDescriptor::getName).toList()) + suffix;
    }

    private static List<Message> variants(Descriptor d, Set<Descriptor> path) {
        Set<Descriptor> deeper = new HashSet<>(path);
        deeper.add(d);
        return choices(d).stream().map(choice -> build(d, choice, deeper)).toList();
    }

    private static Message build(Descriptor d, Map<OneofDescriptor, FieldDescriptor> choice, Set<Descriptor> path) {
        Message.Builder b = builder(d);
        for (FieldDescriptor f : d.getFields()) {
            OneofDescriptor oneof = f.getRealContainingOneof();
            if (oneof != null && choice.get(oneof) != f) {
                continue;
            }
            if (f.isMapField()) {
                FieldDescriptor key = f.getMessageType().findFieldByNumber(1);
                FieldDescriptor value = f.getMessageType().findFieldByNumber(2);
                for (int i = 0; i < count(value, path); i++) {
                    b.addRepeatedField(f, b.newBuilderForField(f)
                            .setField(key, value(key, i, path)).setField(value, value(value, i, path)).build());
                }
            } else if (f.isRepeated()) {
                for (int i = 0; i < count(f, path); i++) {
                    b.addRepeatedField(f, value(f, i, path));
                }
            } else {
                b.setField(f, value(f, 0, path));
            }
        }
        return b.build();
    }

    /** Every field with presence (proto3 optional, messages, the chosen oneof members) set to its default. */
    private static Message atDefault(Descriptor d, Map<OneofDescriptor, FieldDescriptor> choice) {
        Message.Builder b = builder(d);
        for (FieldDescriptor f : d.getFields()) {
            OneofDescriptor oneof = f.getRealContainingOneof();
            if (f.isRepeated() || !f.hasPresence() || (oneof != null && choice.get(oneof) != f)) {
                continue;
            }
            if (f.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                b.setField(f, f.getDefaultValue());
            } else if (f.getMessageType().getFullName().equals("google.protobuf.Value")) {
                // PROTOCOL (proto3 JSON): a Value is never "empty"; its closest default is null.
                b.setField(f, Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build());
            } else {
                b.setField(f, builder(f.getMessageType()).build());
            }
        }
        return b.build();
    }

    /** Two elements of a list or map, or one per variant of a message element type when it has more. */
    private static int count(FieldDescriptor f, Set<Descriptor> path) {
        if (f.getJavaType() != FieldDescriptor.JavaType.MESSAGE || wellKnown(f.getMessageType())
                || path.contains(f.getMessageType())) {
            return 2;
        }
        return Math.max(2, choices(f.getMessageType()).size());
    }

    private static Object value(FieldDescriptor f, int i, Set<Descriptor> path) {
        return switch (f.getJavaType()) {
            case INT -> unsigned(f) ? (int) (0xFFFF_FFF0L - i) : -42 - i;
            case LONG -> unsigned(f) ? -2L - i : -9_007_199_254_740_993L - i;
            case FLOAT -> 1.5f + i;
            case DOUBLE -> 2.25 + i;
            case BOOLEAN -> i % 2 == 0;
            case STRING -> f.getName() + "#" + i + " \"quoted\" back\\slash\nline\ttab\u0001 é 😀 \u2028";
            case BYTE_STRING -> ByteString.copyFrom(new byte[] {(byte) 0xfb, (byte) 0xff, 0, (byte) ('a' + i)});
            case ENUM -> nonDefault(f, i);
            case MESSAGE -> message(f.getMessageType(), i, path);
        };
    }

    private static boolean unsigned(FieldDescriptor f) {
        return switch (f.getType()) {
            case UINT32, FIXED32, UINT64, FIXED64 -> true;
            default -> false;
        };
    }

    private static EnumValueDescriptor nonDefault(FieldDescriptor f, int i) {
        List<EnumValueDescriptor> named = f.getEnumType().getValues().stream().filter(v -> v.getNumber() != 0).toList();
        return named.get(named.size() - 1 - i % named.size());
    }

    private static Message message(Descriptor d, int i, Set<Descriptor> path) {
        switch (d.getFullName()) {
            case "google.protobuf.Timestamp" -> {
                return Timestamp.newBuilder().setSeconds(1_780_000_000L + i).setNanos(i == 0 ? 120_000_000 : 123_456_789).build();
            }
            case "google.protobuf.Struct" -> {
                return everyKind(i);
            }
            case "google.protobuf.Value" -> {
                return i == 0 ? Value.newBuilder().setStructValue(everyKind(i)).build()
                        : Value.newBuilder().setListValue(ListValue.newBuilder().addAllValues(everyKind(i).getFieldsMap().values())).build();
            }
            case "google.protobuf.ListValue" -> {
                return ListValue.newBuilder().addAllValues(everyKind(i).getFieldsMap().values()).build();
            }
            case "google.protobuf.Empty" -> {
                return builder(d).build();
            }
            default -> {
                if (wellKnown(d)) {
                    throw new IllegalStateException("no value to fill " + d.getFullName() + " with: add one here");
                }
                if (path.contains(d)) {
                    return builder(d).build();
                }
                List<Message> variants = variants(d, path);
                return variants.get(i % variants.size());
            }
        }
    }

    /** A Struct holding every kind of Value, integral and fractional numbers and nesting included. */
    private static Struct everyKind(int i) {
        return Struct.newBuilder()
                .putFields("null", Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build())
                .putFields("integral", Value.newBuilder().setNumberValue(6 + i).build())
                .putFields("fraction", Value.newBuilder().setNumberValue(-4.17).build())
                .putFields("text", Value.newBuilder().setStringValue("a \"b\" \n" + i).build())
                .putFields("bool", Value.newBuilder().setBoolValue(true).build())
                .putFields("struct", Value.newBuilder().setStructValue(Struct.newBuilder()
                        .putFields("inner", Value.newBuilder().setStringValue("x").build())).build())
                .putFields("list", Value.newBuilder().setListValue(ListValue.newBuilder()
                        .addValues(Value.newBuilder().setNumberValue(1))
                        .addValues(Value.newBuilder().setStructValue(Struct.getDefaultInstance()))).build())
                .build();
    }

    private static boolean wellKnown(Descriptor d) {
        return d.getFile().getPackage().equals("google.protobuf");
    }

    /** The generated class's builder, so the hot-type printer recognises Task, Message and the rest. */
    private static Message.Builder builder(Descriptor d) {
        if (d.getOptions().getMapEntry()) {
            throw new IllegalArgumentException("map entries are built through their field");
        }
        String name = d.getName();
        for (Descriptor outer = d.getContainingType(); outer != null; outer = outer.getContainingType()) {
            name = outer.getName() + "$" + name;
        }
        String pkg = d.getFile().getOptions().getJavaPackage();
        try {
            Class<?> type = Class.forName((pkg.isEmpty() ? "" : pkg + ".") + name);
            return ((Message) type.getMethod("getDefaultInstance").invoke(null)).newBuilderForType();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("no generated class for " + d.getFullName(), e);
        }
    }
}
