package legate.tap.web;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Set;

/**
 * A few distinct ids per row (the tasks an exchange names or shows, or its contexts), as a column
 * of references into one {@link IdRing}: the first of each row in an array of numbers, the rare
 * others in a second array. An exchange names one task almost always, so a row costs no object
 * here. A reference whose id the ring has let go reads as nothing.
 *
 * <p>Not thread-safe.
 */
final class IdColumn {
    private static final long NONE = -1;

    private final IdRing ids;
    private final long[] first;
    private final long[][] rest;

    IdColumn(IdRing ids, int rows) {
        this.ids = ids;
        first = new long[rows];
        rest = new long[rows][];
        Arrays.fill(first, NONE);
    }

    void clear(int row) {
        first[row] = NONE;
        rest[row] = null;
    }

    /** Adds the id {@code reference} names to the row's unless it holds it already. */
    void add(int row, long reference) {
        if (reference < 0 || contains(row, reference)) {
            return;
        }
        if (first[row] == NONE) {
            first[row] = reference;
            return;
        }
        long[] more = rest[row] == null ? new long[1] : Arrays.copyOf(rest[row], rest[row].length + 1);
        more[more.length - 1] = reference;
        rest[row] = more;
    }

    boolean contains(int row, long reference) {
        if (first[row] == reference) {
            return reference != NONE;
        }
        if (rest[row] != null) {
            for (long r : rest[row]) {
                if (r == reference) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether the row holds one of {@code references}. */
    boolean anyOf(int row, Set<Long> references) {
        if (first[row] == NONE) {
            return false;
        }
        if (references.contains(first[row])) {
            return true;
        }
        if (rest[row] != null) {
            for (long r : rest[row]) {
                if (references.contains(r)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether one of the row's ids contains {@code part}, given in lower case, ignoring case. */
    boolean anyContains(int row, String part) {
        if (first[row] == NONE) {
            return false;
        }
        if (contains(ids.id(first[row]), part)) {
            return true;
        }
        if (rest[row] != null) {
            for (long r : rest[row]) {
                if (contains(ids.id(r), part)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean contains(String id, String part) {
        return id != null && id.toLowerCase(Locale.ROOT).contains(part);
    }

    /** Writes the row's ids as a JSON array named {@code name}; nothing when it has none. */
    void write(JsonGenerator g, String name, int row) throws IOException {
        if (first[row] == NONE || ids.id(first[row]) == null) {
            return;
        }
        g.writeArrayFieldStart(name);
        g.writeString(ids.id(first[row]));
        if (rest[row] != null) {
            for (long r : rest[row]) {
                String id = ids.id(r);
                if (id != null) {
                    g.writeString(id);
                }
            }
        }
        g.writeEndArray();
    }
}
