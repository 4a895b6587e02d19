package legate.a2a.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import legate.a2a.model.FilledMessages.Filled;
import lf.a2a.v1.A2AProto;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every field of every message in a2a.proto, filled from the descriptors ({@link FilledMessages}),
 * held to protobuf's JsonFormat, the reference for ProtoJSON (A2A §5.5): both ways the hand-written
 * printer has of writing a message (the descriptor walker, and the generated getters of
 * {@code HotTypeWriter} for Task, Message, Part, Artifact and the events) print the same document
 * as JsonFormat, and the reader reads JsonFormat's document back to the same message. A field added
 * to the proto that a hand-written path forgets, or a JSON name mistyped in one, fails here.
 *
 * <p>Documents are compared as JSON (Gson's tree): member order and escapes may differ, and
 * integral numbers in a Struct print as {@code 6} here and {@code 6.0} in JsonFormat.
 */
class ProtoJsonEveryFieldTest {
    private static final FileDescriptor A2A = A2AProto.getDescriptor();
    private static final List<Filled> FILLED = FilledMessages.of(A2A);
    private static final ProtoJsonWriter WALKER_ONLY = new ProtoJsonWriter(Set.of(), false);
    private static final ObjectMapper JSON = new ObjectMapper();

    static List<Filled> filled() {
        return FILLED;
    }

    private static JsonElement jsonFormat(Message m) throws Exception {
        return JsonParser.parseString(JsonFormat.printer().print(m));
    }

    @ParameterizedTest
    @MethodSource("filled")
    void theHotPathPrinterPrintsWhatJsonFormatPrints(Filled filled) throws Exception {
        assertThat(JsonParser.parseString(ProtoJson.print(filled.message()))).isEqualTo(jsonFormat(filled.message()));
    }

    @ParameterizedTest
    @MethodSource("filled")
    void theDescriptorWalkerPrintsWhatJsonFormatPrints(Filled filled) throws Exception {
        StringBuilder out = new StringBuilder();
        WALKER_ONLY.write(filled.message(), out);
        assertThat(JsonParser.parseString(out.toString())).isEqualTo(jsonFormat(filled.message()));
    }

    @ParameterizedTest
    @MethodSource("filled")
    void theReaderReadsJsonFormatsDocumentBackToTheSameMessage(Filled filled) throws Exception {
        Message m = filled.message();
        String theirs = JsonFormat.printer().print(m);
        assertThat(ProtoJson.read(JSON.readTree(theirs), "json", m.newBuilderForType()).build()).isEqualTo(m);
        assertThat(ProtoJson.read(JSON.readTree(ProtoJson.print(m)), "json", m.newBuilderForType()).build()).isEqualTo(m);
    }

    // The three tests above prove only what the filled messages hold: every type and every field of
    // a2a.proto must be set in at least one of them, or a new field would pass unseen.
    @Test
    void everyFieldOfEveryMessageTypeIsSetSomewhere() {
        Set<Descriptor> types = new HashSet<>();
        Set<FieldDescriptor> fields = new HashSet<>();
        FILLED.forEach(f -> collect(f.message(), types, fields));

        List<Descriptor> declared = declared(A2A.getMessageTypes(), new ArrayList<>());
        assertThat(types).containsAll(declared);
        assertThat(fields).containsAll(declared.stream().flatMap(d -> d.getFields().stream()).toList());
    }

    private static List<Descriptor> declared(List<Descriptor> types, List<Descriptor> into) {
        for (Descriptor d : types) {
            into.add(d);
            declared(d.getNestedTypes(), into);
        }
        return into;
    }

    private static void collect(Message m, Set<Descriptor> types, Set<FieldDescriptor> fields) {
        types.add(m.getDescriptorForType());
        for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
            fields.add(e.getKey());
            if (e.getKey().getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
                continue;
            }
            if (e.getValue() instanceof List<?> list) {
                list.forEach(item -> collect((Message) item, types, fields));
            } else {
                collect((Message) e.getValue(), types, fields);
            }
        }
    }
}
