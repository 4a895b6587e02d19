package legate.tap.show;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.IOException;

/**
 * An indented layout of JSON text that keeps every token exactly as it was sent: numbers, string
 * escapes and key order are the sender's, only whitespace between tokens changes. Text that is not
 * one well-formed JSON value (trailing bytes, a duplicate key, a cut-off body) gets no layout, so
 * the printer shows it raw and the fault stays visible.
 *
 * <p>It works on the UTF-8 bytes as they crossed the tap and writes bytes: a body is never decoded
 * into characters and encoded again on its way to the console.
 */
final class JsonLayout {
    private static final JsonFactory STRICT = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    private static final byte[] INDENT = {' ', ' '};

    private JsonLayout() {
    }

    /**
     * Lays the JSON out into {@code out}, one body line per line of the layout.
     *
     * @return false, with nothing written, when {@code json} is not exactly one well-formed JSON
     *     value in well-formed UTF-8; the caller then shows it as it came
     */
    static boolean layOut(byte[] json, PrintedBlock out) {
        if (hasBom(json) || !wellFormed(json)) {
            return false;
        }
        int mark = out.mark();
        out.openBodyLine();
        int depth = 0;
        int i = 0;
        while (i < json.length) {
            byte c = json[i];
            switch (c) {
                case '"' -> {
                    // A string is copied whole, escapes and all: the sender's token.
                    int end = stringEnd(json, i);
                    if (!out.putVisible(json, i, end)) {
                        out.reset(mark);
                        return false;
                    }
                    i = end;
                    continue;
                }
                case ' ', '\t', '\n', '\r' -> {
                    // whitespace between tokens is the layout's to choose
                }
                case '{', '[' -> {
                    out.put(c);
                    int next = skipSpace(json, i + 1);
                    byte close = c == '{' ? (byte) '}' : (byte) ']';
                    if (next < json.length && json[next] == close) {
                        out.put(close);
                        i = next;
                    } else {
                        depth++;
                        newline(out, depth);
                    }
                }
                case '}', ']' -> {
                    depth--;
                    newline(out, depth);
                    out.put(c);
                }
                case ',' -> {
                    out.put(c);
                    newline(out, depth);
                }
                case ':' -> {
                    out.put(c);
                    out.put((byte) ' ');
                }
                default -> {
                    // a number or a literal: copied up to the next delimiter
                    int end = i + 1;
                    while (end < json.length && !isDelimiter(json[end])) {
                        end++;
                    }
                    if (!out.putVisible(json, i, end)) {
                        out.reset(mark);
                        return false;
                    }
                    i = end;
                    continue;
                }
            }
            i++;
        }
        out.endLine();
        return true;
    }

    /** The index just past the closing quote of the string that opens at {@code open}. */
    private static int stringEnd(byte[] in, int open) {
        int i = open + 1;
        while (i < in.length) {
            byte c = in[i];
            if (c == '\\') {
                i += 2;
            } else if (c == '"') {
                return i + 1;
            } else {
                i++;
            }
        }
        return in.length;
    }

    private static boolean isDelimiter(byte c) {
        return switch (c) {
            case ' ', '\t', '\n', '\r', ',', ':', '{', '}', '[', ']', '"' -> true;
            default -> false;
        };
    }

    private static int skipSpace(byte[] in, int from) {
        int i = from;
        while (i < in.length && (in[i] == ' ' || in[i] == '\t' || in[i] == '\n' || in[i] == '\r')) {
            i++;
        }
        return i;
    }

    private static void newline(PrintedBlock out, int depth) {
        out.endLine();
        out.openBodyLine();
        for (int i = 0; i < depth; i++) {
            out.put(INDENT);
        }
    }

    /** A byte order mark is not JSON text (RFC 8259 §8.1); Jackson would skip it, so it is refused here. */
    private static boolean hasBom(byte[] json) {
        return json.length >= 3 && (json[0] & 0xff) == 0xef && (json[1] & 0xff) == 0xbb && (json[2] & 0xff) == 0xbf;
    }

    private static boolean wellFormed(byte[] json) {
        try (JsonParser p = STRICT.createParser(json)) {
            if (p.nextToken() == null) {
                return false;
            }
            p.skipChildren();
            return p.nextToken() == null;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
