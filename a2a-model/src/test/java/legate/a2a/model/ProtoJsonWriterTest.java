package legate.a2a.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import com.google.protobuf.ListValue;
import com.google.protobuf.Message;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import java.util.Map;
import java.util.stream.Stream;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AuthorizationCodeOAuthFlow;
import lf.a2a.v1.OAuth2SecurityScheme;
import lf.a2a.v1.OAuthFlows;
import lf.a2a.v1.Part;

import lf.a2a.v1.SecurityScheme;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Our hot-path ProtoJSON printer against protobuf's own JsonFormat: the same JSON document for
 * every message kind and edge case (numbers compared as numbers, since JSON does not distinguish
 * 6 from 6.0).
 */
class ProtoJsonWriterTest {

    static Stream<Message> messages() {
        Struct data = Struct.newBuilder()
                .putFields("int", Value.newBuilder().setNumberValue(6).build())
                .putFields("fraction", Value.newBuilder().setNumberValue(4.17).build())
                .putFields("negative", Value.newBuilder().setNumberValue(-0.5).build())
                .putFields("huge", Value.newBuilder().setNumberValue(1e300).build())
                .putFields("null", Value.newBuilder().setNullValue(NullValue.NULL_VALUE).build())
                .putFields("bool", Value.newBuilder().setBoolValue(true).build())
                .putFields("text", Value.newBuilder().setStringValue("quote \" backslash \\ tab \t nul \0 line \u2028 é 😀").build())
                .putFields("list", Value.newBuilder().setListValue(ListValue.newBuilder()
                        .addValues(Value.newBuilder().setStringValue("a"))
                        .addValues(Value.newBuilder().setStructValue(Struct.getDefaultInstance()))).build())
                .build();
        Task.Builder task = Task.newBuilder().setId("t").setContextId("c")
                .setStatus(TaskStatus.newBuilder().setState(lf.a2a.v1.TaskState.TASK_STATE_WORKING)
                        .setTimestamp(Timestamp.newBuilder().setSeconds(1_700_000_000).setNanos(123_456_000)))
                .setMetadata(data);
        return Stream.concat(ProtoJsonTest.everyMessageKind(), Stream.of(
                task.build(),
                task.setStatus(task.getStatus().toBuilder().setTimestamp(Timestamp.newBuilder().setSeconds(0).setNanos(1))).build(),
                task.setStatus(task.getStatus().toBuilder().setTimestamp(Timestamp.newBuilder().setSeconds(253_402_300_799L))).build(),
                Part.newBuilder().setData(Value.newBuilder().setStructValue(data)).build(),
                lf.a2a.v1.Message.newBuilder().setMessageId("m").setRoleValue(42).build(),
                AgentCard.newBuilder().putSecuritySchemes("oauth", SecurityScheme.newBuilder().setOauth2SecurityScheme(
                        OAuth2SecurityScheme.newBuilder().setFlows(OAuthFlows.newBuilder().setAuthorizationCode(
                                AuthorizationCodeOAuthFlow.newBuilder().setAuthorizationUrl("https://a/")
                                        .putAllScopes(Map.of("read", "Read", "write", "Write"))
                                        .setPkceRequired(true))))
                        .build()).build()));
    }

    @ParameterizedTest
    @MethodSource("messages")
    void printsTheSameJsonDocumentAsJsonFormat(Message message) throws Exception {
        JsonElement ours = JsonParser.parseString(ProtoJson.print(message));
        JsonElement theirs = JsonParser.parseString(JsonFormat.printer().print(message));
        assertThat(ours).isEqualTo(theirs);
    }

    @Test
    void integralNumbersPrintAsJavaScriptPrintsThem() {
        String json = ProtoJson.print(Value.newBuilder().setNumberValue(6).build());
        assertThat(json).isEqualTo("6");
        assertThat(ProtoJson.print(Value.newBuilder().setNumberValue(4.17).build())).isEqualTo("4.17");
    }

    @Test
    void onlyWhatJsonRequiresIsEscaped() {
        StringBuilder out = new StringBuilder();
        ProtoJsonWriter.string("<a href='x'>\n\u0001é", out);
        assertThat(out).hasToString("\"<a href='x'>\\n\\u0001é\"");
    }

    @Test
    void timestampsCarryZeroThreeSixOrNineFractionDigits() {
        assertThat(ts(0)).isEqualTo("\"2023-11-14T22:13:20Z\"");
        assertThat(ts(120_000_000)).isEqualTo("\"2023-11-14T22:13:20.120Z\"");
        assertThat(ts(120_000)).isEqualTo("\"2023-11-14T22:13:20.000120Z\"");
        assertThat(ts(7)).isEqualTo("\"2023-11-14T22:13:20.000000007Z\"");
    }

    private static String ts(int nanos) {
        StringBuilder out = new StringBuilder();
        ProtoJsonWriter.timestamp(Timestamp.newBuilder().setSeconds(1_700_000_000).setNanos(nanos).build(), out);
        return out.toString();
    }

}
