package legate.a2a.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import java.util.HashSet;
import java.util.Set;
import lf.a2a.v1.ListTasksResponse;
import lf.a2a.v1.Task;

/**
 * The ProtoJSON codec every A2A JSON binding uses (A2A §5.5): lowerCamelCase names,
 * enums by full name, default values omitted, oneofs flattened to their member name.
 *
 * <p>Parsing is lenient as §5.7 asks: unknown fields are ignored, snake_case names are accepted
 * (JsonFormat reads both the JSON name and the proto name), and an enum value this build does not
 * know leaves the field at its default instead of failing the whole request. Printing is strict
 * ProtoJSON, except where the spec makes a field REQUIRED although its value is a default; those
 * are forced back with {@link #printListTasks}. Printing goes through {@link ProtoJsonWriter} and
 * reading a Jackson tree through {@link ProtoJsonReader} (see there why not JsonFormat); text is
 * parsed by JsonFormat, the reference both are held to.
 */
public final class ProtoJson {
    private static final JsonFormat.Printer PRETTY = JsonFormat.printer();
    private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();

    private static final Set<FieldDescriptor> LIST_FIELDS = Set.of(
            ListTasksResponse.getDescriptor().findFieldByNumber(ListTasksResponse.TASKS_FIELD_NUMBER),
            ListTasksResponse.getDescriptor().findFieldByNumber(ListTasksResponse.NEXT_PAGE_TOKEN_FIELD_NUMBER),
            ListTasksResponse.getDescriptor().findFieldByNumber(ListTasksResponse.PAGE_SIZE_FIELD_NUMBER),
            ListTasksResponse.getDescriptor().findFieldByNumber(ListTasksResponse.TOTAL_SIZE_FIELD_NUMBER));
    private static final FieldDescriptor TASK_ARTIFACTS =
            Task.getDescriptor().findFieldByNumber(Task.ARTIFACTS_FIELD_NUMBER);

    private static final ProtoJsonWriter WRITER = new ProtoJsonWriter(Set.of());
    // PROTOCOL (A2A §3.1.4): tasks, nextPageToken ("" on the last page), pageSize and totalSize are
    // REQUIRED, so they are printed even at their default values.
    private static final ProtoJsonWriter LIST_WRITER = new ProtoJsonWriter(LIST_FIELDS);
    // PROTOCOL (A2A §3.1.4): with includeArtifacts=true every task carries `artifacts`, [] when empty.
    private static final ProtoJsonWriter LIST_WITH_ARTIFACTS_WRITER = new ProtoJsonWriter(union(LIST_FIELDS, TASK_ARTIFACTS));

    private ProtoJson() {
    }

    /** Compact ProtoJSON of a message. */
    public static String print(MessageOrBuilder message) {
        StringBuilder out = new StringBuilder(256);
        WRITER.write(message, out);
        return out.toString();
    }

    /** Appends compact ProtoJSON to a builder, without an intermediate string. */
    public static void printTo(MessageOrBuilder message, StringBuilder out) {
        WRITER.write(message, out);
    }

    /** Indented ProtoJSON, for people (the client's card view). */
    public static String pretty(MessageOrBuilder message) {
        try {
            return PRETTY.print(message);
        } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException("cannot print " + message.getClass().getSimpleName(), e);
        }
    }

    /** ListTasksResponse with the REQUIRED fields forced, and `artifacts` on every task when asked. */
    public static String printListTasks(ListTasksResponse response, boolean includeArtifacts) {
        StringBuilder out = new StringBuilder(1024);
        (includeArtifacts ? LIST_WITH_ARTIFACTS_WRITER : LIST_WRITER).write(response, out);
        return out.toString();
    }

    /**
     * Reads ProtoJSON that is already a Jackson tree into a builder of the expected type, without
     * going back to text: what the server does with params and the client with results.
     *
     * @param member what the JSON is, named in error messages ("params", "result")
     * @throws A2aException INVALID_PARAMS naming the type, the field and what was wrong
     */
    public static <B extends Message.Builder> B read(JsonNode json, String member, B builder) {
        return ProtoJsonReader.read(json, member, builder);
    }

    /**
     * Parses ProtoJSON text into a builder of the expected type, through JsonFormat.
     *
     * @throws A2aException INVALID_PARAMS naming the type and what was wrong
     */
    public static <B extends Message.Builder> B parse(String json, B builder) {
        try {
            PARSER.merge(json, builder);
            return builder;
        } catch (InvalidProtocolBufferException | RuntimeException e) {
            throw A2aError.INVALID_PARAMS.exception("invalid " + builder.getDescriptorForType().getName()
                    + ": " + firstLine(e.getMessage()));
        }
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "malformed value";
        }
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.length() > 300 ? line.substring(0, 300) + "…" : line;
    }

    private static Set<FieldDescriptor> union(Set<FieldDescriptor> a, FieldDescriptor b) {
        Set<FieldDescriptor> all = new HashSet<>(a);
        all.add(b);
        return Set.copyOf(all);
    }
}
