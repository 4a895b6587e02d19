package legate.cli.client;

import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;

/**
 * A {@link Part} as lines a person reads: text as written, a JSON object as one {@code key  value}
 * line per field, files by name, type and size or URL. PROTOCOL (A2A §4.1.6): a part holds exactly
 * one of text, raw, url and data, whatever its mediaType says.
 */
final class PartText {
    private PartText() {
    }

    static List<String> lines(Part part) {
        return switch (part.getContentCase()) {
            case TEXT -> List.of(part.getText().split("\\R", -1));
            case DATA -> data(part.getData());
            case URL -> List.of(file(part) + part.getUrl());
            case RAW -> List.of(file(part) + part.getRaw().size() + " bytes");
            case CONTENT_NOT_SET -> List.of("(an empty part)");
        };
    }

    /** The text parts of a message joined by spaces: what an agent says in a status update. */
    static String said(Message message) {
        return message.getPartsList().stream()
                .filter(p -> p.getContentCase() == Part.ContentCase.TEXT)
                .map(Part::getText)
                .collect(Collectors.joining(" ")).strip();
    }

    private static List<String> data(Value value) {
        if (value.getKindCase() != Value.KindCase.STRUCT_VALUE || value.getStructValue().getFieldsCount() == 0) {
            return List.of(inline(value));
        }
        Map<String, Value> fields = value.getStructValue().getFieldsMap();
        int width = fields.keySet().stream().mapToInt(String::length).max().orElse(0);
        List<String> out = new ArrayList<>();
        fields.forEach((k, v) -> out.add(k + " ".repeat(width - k.length() + 2) + inline(v)));
        return out;
    }

    private static String inline(Value v) {
        return switch (v.getKindCase()) {
            case NULL_VALUE, KIND_NOT_SET -> "null";
            case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
            case STRING_VALUE -> v.getStringValue();
            case NUMBER_VALUE -> number(v.getNumberValue());
            case STRUCT_VALUE -> struct(v.getStructValue());
            case LIST_VALUE -> list(v.getListValue());
        };
    }

    private static String struct(Struct s) {
        return s.getFieldsMap().entrySet().stream()
                .map(e -> e.getKey() + ": " + inline(e.getValue()))
                .collect(Collectors.joining(", ", "{", "}"));
    }

    private static String list(ListValue l) {
        return l.getValuesList().stream().map(PartText::inline).collect(Collectors.joining(", ", "[", "]"));
    }

    /** JSON numbers are doubles in protobuf; 13.0 reads as 13. */
    private static String number(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        return Double.toString(d);
    }

    private static String file(Part part) {
        StringBuilder sb = new StringBuilder();
        if (!part.getFilename().isEmpty()) {
            sb.append(part.getFilename()).append(' ');
        }
        if (!part.getMediaType().isEmpty()) {
            sb.append('(').append(part.getMediaType()).append(") ");
        }
        return sb.toString();
    }
}
