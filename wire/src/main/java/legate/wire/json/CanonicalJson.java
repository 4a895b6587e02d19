package legate.wire.json;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The JSON Canonicalization Scheme (RFC 8785, "JCS"): one byte sequence per JSON value, so that a
 * signature over a document survives any re-serialization that keeps its data. What a signed Agent
 * Card signs (A2A §8.4).
 *
 * <p>Object members sorted by their names as UTF-16 code units (RFC 8785 §3.2.3), no whitespace,
 * strings with the minimal escaping of ECMAScript's JSON.stringify (§3.2.2.2), numbers in
 * ECMAScript's Number.prototype.toString form (§3.2.2.3). A number that an IEEE 754 double cannot
 * hold exactly is written as the double nearest to it, as a JavaScript reader would.
 */
public final class CanonicalJson {
    private CanonicalJson() {
    }

    /** The canonical UTF-8 bytes of {@code value}. */
    public static byte[] bytes(JsonNode value) {
        return string(value).getBytes(StandardCharsets.UTF_8);
    }

    /** The canonical text of {@code value}. */
    public static String string(JsonNode value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(JsonNode node, StringBuilder out) {
        switch (node.getNodeType()) {
            case OBJECT -> writeObject(node, out);
            case ARRAY -> {
                out.append('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(node.get(i), out);
                }
                out.append(']');
            }
            case STRING -> writeString(node.textValue(), out);
            case NUMBER -> out.append(number(node.isBigDecimal() ? node.decimalValue().doubleValue() : node.doubleValue()));
            case BOOLEAN -> out.append(node.booleanValue());
            case NULL, MISSING -> out.append("null");
            case BINARY, POJO -> throw new IllegalArgumentException("not a JSON value: " + node.getNodeType());
        }
    }

    private static void writeObject(JsonNode node, StringBuilder out) {
        List<Map.Entry<String, JsonNode>> members = new ArrayList<>(node.size());
        node.properties().forEach(members::add);
        // PROTOCOL (RFC 8785 §3.2.3): sort by UTF-16 code units, which String.compareTo does.
        members.sort(Map.Entry.comparingByKey());
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, JsonNode> m : members) {
            if (!first) {
                out.append(',');
            }
            first = false;
            writeString(m.getKey(), out);
            out.append(':');
            write(m.getValue(), out);
        }
        out.append('}');
    }

    private static void writeString(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /**
     * ECMAScript's Number.prototype.toString for a finite double (ECMA-262 §7.1.12.1): the shortest
     * digits that read back as the same double, in plain notation for exponents -6 to 20 and in
     * exponent notation outside them.
     */
    static String number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            // PROTOCOL (RFC 8785 §3.2.2.3): NaN and Infinity are not JSON and must be refused.
            throw new IllegalArgumentException("JSON has no number " + d);
        }
        if (d == 0) {
            return "0";
        }
        // Double.toString gives the shortest round-tripping digits (JDK 19 and later), but never
        // fewer than two: where one digit reads back too (5e-324, not 4.9e-324), take that one.
        BigDecimal shortest = new BigDecimal(Double.toString(Math.abs(d))).stripTrailingZeros();
        if (shortest.precision() == 2) {
            BigDecimal one = shortest.round(new MathContext(1, RoundingMode.HALF_EVEN));
            if (one.doubleValue() == Math.abs(d)) {
                shortest = one.stripTrailingZeros();
            }
        }
        String digits = shortest.unscaledValue().toString();
        int k = digits.length();
        int n = k - shortest.scale();
        StringBuilder out = new StringBuilder(d < 0 ? "-" : "");
        if (k <= n && n <= 21) {
            out.append(digits).append("0".repeat(n - k));
        } else if (0 < n && n <= 21) {
            out.append(digits, 0, n).append('.').append(digits, n, k);
        } else if (-6 < n && n <= 0) {
            out.append("0.").append("0".repeat(-n)).append(digits);
        } else {
            out.append(digits.charAt(0));
            if (k > 1) {
                out.append('.').append(digits, 1, k);
            }
            int e = n - 1;
            out.append('e').append(e < 0 ? '-' : '+').append(Math.abs(e));
        }
        return out.toString();
    }
}
