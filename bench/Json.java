import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Just enough JSON for the harness: parses the one-line results the load generators print (objects,
 * arrays, strings, numbers as Double, booleans, null) and writes the results file, indented.
 */
final class Json {
    private final String s;
    private int i;

    private Json(String s) {
        this.s = s;
    }

    static Object parse(String text) {
        Json p = new Json(text);
        Object v = p.value();
        p.ws();
        if (p.i != p.s.length()) {
            throw new IllegalArgumentException("trailing text at " + p.i + " in " + text);
        }
        return v;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String text) {
        return (Map<String, Object>) parse(text);
    }

    private Object value() {
        ws();
        char c = s.charAt(i);
        switch (c) {
            case '{' -> {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                ws();
                if (s.charAt(i) == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    ws();
                    String k = string();
                    ws();
                    expect(':');
                    m.put(k, value());
                    ws();
                    if (s.charAt(i) == ',') {
                        i++;
                    } else {
                        expect('}');
                        return m;
                    }
                }
            }
            case '[' -> {
                i++;
                List<Object> l = new ArrayList<>();
                ws();
                if (s.charAt(i) == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    ws();
                    if (s.charAt(i) == ',') {
                        i++;
                    } else {
                        expect(']');
                        return l;
                    }
                }
            }
            case '"' -> {
                return string();
            }
            default -> {
                if (s.startsWith("true", i)) {
                    i += 4;
                    return Boolean.TRUE;
                }
                if (s.startsWith("false", i)) {
                    i += 5;
                    return Boolean.FALSE;
                }
                if (s.startsWith("null", i)) {
                    i += 4;
                    return null;
                }
                int start = i;
                while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                    i++;
                }
                if (start == i) {
                    throw new IllegalArgumentException("unexpected '" + c + "' at " + i);
                }
                return Double.parseDouble(s.substring(start, i));
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = s.charAt(i++);
            if (c == '"') {
                return b.toString();
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = s.charAt(i++);
            switch (e) {
                case 'n' -> b.append('\n');
                case 't' -> b.append('\t');
                case 'r' -> b.append('\r');
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'u' -> {
                    b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    i += 4;
                }
                default -> b.append(e);
            }
        }
    }

    private void expect(char c) {
        if (s.charAt(i) != c) {
            throw new IllegalArgumentException("expected '" + c + "' at " + i + ", got '" + s.charAt(i) + "'");
        }
        i++;
    }

    private void ws() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    static String write(Object v) {
        StringBuilder b = new StringBuilder();
        write(b, v, "");
        return b.append('\n').toString();
    }

    private static void write(StringBuilder b, Object v, String indent) {
        switch (v) {
            case null -> b.append("null");
            case Map<?, ?> m -> {
                if (m.isEmpty()) {
                    b.append("{}");
                    return;
                }
                String in = indent + "  ";
                b.append("{\n");
                int n = 0;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    b.append(in).append(quote(String.valueOf(e.getKey()))).append(": ");
                    write(b, e.getValue(), in);
                    b.append(++n < m.size() ? ",\n" : "\n");
                }
                b.append(indent).append('}');
            }
            case List<?> l -> {
                boolean flat = l.stream().allMatch(x -> !(x instanceof Map) && !(x instanceof List));
                if (flat) {
                    b.append('[');
                    for (int k = 0; k < l.size(); k++) {
                        write(b, l.get(k), indent);
                        if (k + 1 < l.size()) {
                            b.append(", ");
                        }
                    }
                    b.append(']');
                    return;
                }
                String in = indent + "  ";
                b.append("[\n");
                for (int k = 0; k < l.size(); k++) {
                    b.append(in);
                    write(b, l.get(k), in);
                    b.append(k + 1 < l.size() ? ",\n" : "\n");
                }
                b.append(indent).append(']');
            }
            case Double d -> b.append(d.isNaN() || d.isInfinite() ? "null"
                    : d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString(d.longValue())
                    : String.format(Locale.ROOT, "%.4f", d).replaceAll("0+$", ""));
            case Float f -> write(b, f.doubleValue(), indent);
            case Number n -> b.append(n);
            case Boolean x -> b.append(x);
            default -> b.append(quote(v.toString()));
        }
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
