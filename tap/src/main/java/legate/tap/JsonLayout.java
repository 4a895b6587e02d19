package legate.tap;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;

/**
 * An indented layout of JSON text that keeps every token exactly as it was sent: numbers, string
 * escapes and key order are the sender's, only whitespace between tokens changes. Text that is not
 * one well-formed JSON value (trailing bytes, a duplicate key, a cut-off body) gets no layout, so
 * the printer shows it raw and the fault stays visible.
 */
final class JsonLayout {
    private static final JsonFactory STRICT = JsonFactory.builder()
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final String INDENT = "  ";

    private JsonLayout() {
    }

    /** The indented text, or null when {@code text} is not exactly one well-formed JSON value. */
    static String of(String text) {
        if (!wellFormed(text)) {
            return null;
        }
        StringBuilder out = new StringBuilder(text.length() + text.length() / 4);
        int depth = 0;
        boolean inString = false;
        boolean escaped = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                out.append(c);
                if (escaped) {
                    escaped = false;
                } else if (c == '\\') {
                    escaped = true;
                } else if (c == '"') {
                    inString = false;
                }
                continue;
            }
            switch (c) {
                case ' ', '\t', '\n', '\r' -> {
                    // whitespace between tokens is the layout's to choose
                }
                case '"' -> {
                    inString = true;
                    out.append(c);
                }
                case '{', '[' -> {
                    out.append(c);
                    int next = skipSpace(text, i + 1);
                    char close = c == '{' ? '}' : ']';
                    if (next < text.length() && text.charAt(next) == close) {
                        out.append(close);
                        i = next;
                    } else {
                        depth++;
                        newline(out, depth);
                    }
                }
                case '}', ']' -> {
                    depth--;
                    newline(out, depth);
                    out.append(c);
                }
                case ',' -> {
                    out.append(c);
                    newline(out, depth);
                }
                case ':' -> out.append(": ");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean wellFormed(String text) {
        try (JsonParser p = STRICT.createParser(text)) {
            if (p.nextToken() == null) {
                return false;
            }
            p.skipChildren();
            return p.nextToken() == null;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static int skipSpace(String text, int from) {
        int i = from;
        while (i < text.length() && " \t\n\r".indexOf(text.charAt(i)) >= 0) {
            i++;
        }
        return i;
    }

    private static void newline(StringBuilder out, int depth) {
        out.append('\n');
        out.append(INDENT.repeat(Math.max(0, depth)));
    }
}
