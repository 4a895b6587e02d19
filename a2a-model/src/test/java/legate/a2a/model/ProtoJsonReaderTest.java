package legate.a2a.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Message;
import java.util.function.Supplier;
import java.util.stream.Stream;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.SendMessageRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The tree reader against protobuf's JsonFormat parser with unknown fields ignored: the same
 * message for every lenient input A2A §5.7 asks servers to accept, and INVALID_PARAMS where
 * JsonFormat refuses.
 */
class ProtoJsonReaderTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> accepted() {
        Supplier<Message.Builder> send = SendMessageRequest::newBuilder;
        return Stream.of(
                Arguments.of(send, "{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"},"
                        + "{\"raw\":\"aGk=\",\"filename\":\"a\",\"mediaType\":\"text/plain\"},{\"url\":\"https://x/y\"},"
                        + "{\"data\":{\"a\":[1,2.5,null,true,\"s\",{\"b\":{}}]}}],\"metadata\":{\"k\":\"v\"},"
                        + "\"extensions\":[\"urn:x\"],\"referenceTaskIds\":[\"t0\"]},"
                        + "\"configuration\":{\"acceptedOutputModes\":[\"text/plain\"],\"historyLength\":\"3\","
                        + "\"returnImmediately\":true},\"metadata\":{\"n\":1}}"),
                // snake_case names, unknown fields, a v0.3 "kind", null members
                Arguments.of(send, "{\"message\":{\"message_id\":\"m\",\"context_id\":\"c\",\"kind\":\"message\","
                        + "\"role\":1,\"parts\":[{\"text\":\"\"}],\"future\":{\"x\":[1]},\"taskId\":null},\"tenant\":null}"),
                // an enum name this build does not know leaves the default
                Arguments.of(send, "{\"message\":{\"messageId\":\"m\",\"role\":\"user\"}}"),
                Arguments.of(send, "{\"message\":{\"messageId\":\"m\",\"parts\":[{\"data\":\"just a string\"},{\"data\":null}]}}"),
                Arguments.of((Supplier<Message.Builder>) ListTasksRequest::newBuilder,
                        "{\"contextId\":\"c\",\"status\":\"TASK_STATE_WORKING\",\"pageSize\":10,\"pageToken\":\"\","
                                + "\"statusTimestampAfter\":\"2026-03-01T10:00:00.120Z\",\"includeArtifacts\":\"true\","
                                + "\"historyLength\":2.0}"),
                Arguments.of((Supplier<Message.Builder>) GetTaskRequest::newBuilder, "{\"id\":5}"),
                Arguments.of((Supplier<Message.Builder>) GetTaskRequest::newBuilder, "{}"));
    }

    @ParameterizedTest
    @MethodSource("accepted")
    void readsWhatJsonFormatReads(Supplier<Message.Builder> builder, String json) throws Exception {
        Message expected = ProtoJson.parse(json, builder.get()).build();
        Message actual = ProtoJson.read(JSON.readTree(json), "params", builder.get()).build();
        assertThat(actual).isEqualTo(expected);
    }

    static Stream<Arguments> refused() {
        Supplier<Message.Builder> send = SendMessageRequest::newBuilder;
        Supplier<Message.Builder> list = ListTasksRequest::newBuilder;
        return Stream.of(
                Arguments.of(send, "{\"message\":{\"parts\":\"not a list\"}}"),
                Arguments.of(send, "{\"message\":\"text\"}"),
                Arguments.of(send, "{\"message\":{\"parts\":[{\"raw\":\"%%%\"}]}}"),
                Arguments.of(send, "{\"message\":{\"parts\":[{\"text\":\"a\",\"url\":\"b\"}]}}"),
                Arguments.of(send, "{\"configuration\":{\"historyLength\":\"abc\"}}"),
                Arguments.of(send, "{\"configuration\":{\"historyLength\":1.5}}"),
                Arguments.of(send, "{\"configuration\":{\"returnImmediately\":\"yes\"}}"),
                Arguments.of(list, "{\"statusTimestampAfter\":\"yesterday\"}"),
                Arguments.of(list, "{\"pageSize\":99999999999}"),
                Arguments.of((Supplier<Message.Builder>) GetTaskRequest::newBuilder, "{\"id\":{\"nested\":true}}"));
    }

    @ParameterizedTest
    @MethodSource("refused")
    void refusesWhatJsonFormatRefusesAsInvalidParams(Supplier<Message.Builder> builder, String json) throws Exception {
        assertThatThrownBy(() -> ProtoJson.parse(json, builder.get())).isInstanceOf(A2aException.class);
        assertThatThrownBy(() -> ProtoJson.read(JSON.readTree(json), "params", builder.get()))
                .isInstanceOf(A2aException.class)
                .satisfies(e -> assertThat(((A2aException) e).error()).isEqualTo(A2aError.INVALID_PARAMS))
                .hasMessageStartingWith("invalid ");
    }

    /**
     * Half a surrogate pair (a JSON escape can spell one) is no Unicode text: protobuf stores it as
     * "?", so an accepted message would not be what every store gives back. Found by
     * ProtoJsonReaderFuzzTest (docs/fuzzing.md; reproducer lone-surrogate); refused as -32602.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "{\"message\":{\"messageId\":\"\\ud800\"}}",
        "{\"message\":{\"messageId\":\"m\",\"parts\":[{\"text\":\"a\\udc00b\"}]}}",
        "{\"message\":{\"messageId\":\"m\",\"parts\":[{\"text\":\"\\ud83d\"}]}}",
        "{\"metadata\":{\"k\\udbff\":1}}",
        "{\"metadata\":{\"k\":[\"ok\",\"\\ude00\"]}}",
        "{\"message\":{\"messageId\":\"m\",\"parts\":[{\"data\":\"\\ud800\\ud800\"}]}}"})
    void refusesUnpairedSurrogatesAsInvalidParams(String json) {
        assertThatThrownBy(() -> ProtoJson.read(JSON.readTree(json), "params", SendMessageRequest.newBuilder()))
                .isInstanceOf(A2aException.class)
                .satisfies(e -> assertThat(((A2aException) e).error()).isEqualTo(A2aError.INVALID_PARAMS))
                .hasMessageContaining("unpaired surrogate");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "{\"message\":{\"messageId\":\"\\ud83d\\ude00\",\"parts\":[{\"text\":\"\ud83d\ude00 ok\"}]},\"metadata\":{\"\\ud83d\\ude00\":\"\\ud83d\\ude00\"}}"})
    void keepsSurrogatePairs(String json) throws Exception {
        SendMessageRequest read = ProtoJson.read(JSON.readTree(json), "params", SendMessageRequest.newBuilder()).build();
        assertThat(SendMessageRequest.parseFrom(read.toByteArray())).isEqualTo(read);
        assertThat(read.getMessage().getMessageId()).isEqualTo("\ud83d\ude00");
    }
}
