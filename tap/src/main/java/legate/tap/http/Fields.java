package legate.tap.http;

import java.util.ArrayList;
import java.util.List;

/** Look-ups over a message's field lines, by case-insensitive name (RFC 9110 §5.1). */
final class Fields {
    private Fields() {
    }

    static String first(List<Field> fields, String name) {
        for (Field f : fields) {
            if (f.is(name)) {
                return f.value();
            }
        }
        return null;
    }

    static int count(List<Field> fields, String name) {
        int n = 0;
        for (Field f : fields) {
            if (f.is(name)) {
                n++;
            }
        }
        return n;
    }

    /**
     * The comma-separated list elements of every line of the named field, trimmed, empty ones
     * dropped (RFC 9110 §5.6.1: a list field may be split over several lines).
     */
    static List<String> tokens(List<Field> fields, String name) {
        List<String> out = new ArrayList<>(2);
        for (Field f : fields) {
            if (f.is(name)) {
                for (String token : f.value().split(",")) {
                    String t = token.strip();
                    if (!t.isEmpty()) {
                        out.add(t);
                    }
                }
            }
        }
        return out;
    }

    static boolean hasToken(List<Field> fields, String name, String token) {
        for (Field f : fields) {
            if (f.is(name)) {
                for (String t : f.value().split(",")) {
                    if (t.strip().equalsIgnoreCase(token)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
