package legate.acp.translate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import org.junit.jupiter.api.Test;

/** The raw ACP update a status message carries under {@code metadata.acp} (README, translation table). */
class AcpMetadataTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theRawUpdateArrivesAsProtobufsOwnJsonMappingWouldReadIt() throws Exception {
        // The converter walks the Jackson tree instead of printing it for JsonFormat (that round trip was the
        // slowest step before a turn's first frame); every JSON kind must still come out as JsonFormat reads it.
        String raw = "{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t1\",\"title\":\"Grüße 世界 🚀 \\\"q\\\"\\n\","
                + "\"locations\":[{\"path\":\"/tmp/a.txt\",\"line\":12},{\"path\":\"/tmp/b.txt\"}],"
                + "\"rawInput\":{\"n\":-3.25,\"big\":12345678901234567890,\"ok\":true,\"no\":false,\"none\":null,"
                + "\"empty\":{},\"list\":[],\"nested\":[[1,\"x\"],{\"k\":null}]}}";
        JsonNode tree = JSON.readTree(raw);
        Value.Builder expected = Value.newBuilder();
        JsonFormat.parser().merge(raw, expected);
        assertThat(AcpMetadata.value(tree)).isEqualTo(expected.build());
        assertThat(AcpMetadata.of(tree).getFieldsOrThrow("acp")).isEqualTo(expected.build());
    }

    @Test
    void nullAndScalarUpdatesAreValuesToo() throws Exception {
        for (String raw : new String[] {"null", "7", "\"text\"", "true", "[1,2]"}) {
            Value.Builder expected = Value.newBuilder();
            JsonFormat.parser().merge(raw, expected);
            assertThat(AcpMetadata.value(JSON.readTree(raw))).as(raw).isEqualTo(expected.build());
        }
        assertThat(AcpMetadata.value(null)).isEqualTo(Value.newBuilder().setNullValueValue(0).build());
    }
}
