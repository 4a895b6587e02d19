package legate.testsupport;

import com.google.protobuf.ListValue;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.Random;

/**
 * Random JSON values of an exact nesting depth (objects and arrays, counted as
 * {@code legate.a2a.model.NestingLimit} counts them: {@code {"a":1}} is one level), from a seeded
 * {@link Random} so that a failing case can be replayed. Strings mix ASCII, accents, symbols
 * outside the BMP, quotes, backslashes and control characters; numbers are exact in binary
 * (integers and quarters), so a value read back from JSON text compares equal.
 */
public final class NestedJson {
    private static final String[] PIECES = {"a", "key", "é", "✓", "😀", "\"", "\\", "\n", "\t", " ", "0", "Ω", "\u0001"};

    private final Random random;

    public NestedJson(Random random) {
        this.random = random;
    }

    /** An object nesting exactly {@code depth} levels (1 at least), as metadata is. */
    public Struct object(int depth) {
        if (depth < 1) {
            throw new IllegalArgumentException("an object is one level at least, got " + depth);
        }
        return struct(depth);
    }

    /** A value nesting exactly {@code depth} levels: a scalar for 0, else an object or an array. */
    public Value value(int depth) {
        if (depth == 0) {
            return scalar();
        }
        return random.nextBoolean() ? Value.newBuilder().setStructValue(struct(depth)).build()
                : Value.newBuilder().setListValue(list(depth)).build();
    }

    private Struct struct(int depth) {
        Struct.Builder s = Struct.newBuilder();
        int children = 1 + random.nextInt(3);
        int deep = random.nextInt(children);
        for (int i = 0; i < children; i++) {
            // One child carries the depth; the others are shallower, so the whole is exactly `depth` deep.
            s.putFields(text() + "#" + i, value(i == deep ? depth - 1 : random.nextInt(depth)));
        }
        return s.build();
    }

    private ListValue list(int depth) {
        ListValue.Builder l = ListValue.newBuilder();
        int children = 1 + random.nextInt(3);
        int deep = random.nextInt(children);
        for (int i = 0; i < children; i++) {
            l.addValues(value(i == deep ? depth - 1 : random.nextInt(depth)));
        }
        return l.build();
    }

    private Value scalar() {
        return switch (random.nextInt(4)) {
            case 0 -> Value.newBuilder().setStringValue(text()).build();
            case 1 -> Value.newBuilder().setNumberValue((random.nextInt(2_000_001) - 1_000_000) / 4.0).build();
            case 2 -> Value.newBuilder().setBoolValue(random.nextBoolean()).build();
            default -> Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build();
        };
    }

    private String text() {
        StringBuilder s = new StringBuilder();
        int n = random.nextInt(4);
        for (int i = 0; i < n; i++) {
            s.append(PIECES[random.nextInt(PIECES.length)]);
        }
        return s.toString();
    }
}
