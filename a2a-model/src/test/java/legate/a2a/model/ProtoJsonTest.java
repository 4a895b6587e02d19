package legate.a2a.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import java.util.stream.Stream;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.HTTPAuthSecurityScheme;
import lf.a2a.v1.ListTasksResponse;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SecurityRequirement;
import lf.a2a.v1.SecurityScheme;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.StringList;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskArtifactUpdateEvent;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import lf.a2a.v1.TaskStatusUpdateEvent;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** ProtoJSON as A2A §5.5-5.7 defines it: the names, shapes and leniencies peers rely on. */
class ProtoJsonTest {

    private static final lf.a2a.v1.Message USER = lf.a2a.v1.Message.newBuilder()
            .setMessageId("m1").setRole(Role.ROLE_USER).setContextId("c1")
            .addParts(Part.newBuilder().setText("hi"))
            .addParts(Part.newBuilder().setRaw(ByteString.copyFromUtf8("bytes")).setFilename("a.bin").setMediaType("application/octet-stream"))
            .addParts(Part.newBuilder().setUrl("https://example.com/x.pdf"))
            .addParts(Part.newBuilder().setData(Value.newBuilder().setStructValue(Struct.newBuilder()
                    .putFields("k", Value.newBuilder().setNumberValue(1).build()))))
            .build();
    private static final Timestamp T = Timestamp.newBuilder().setSeconds(1_780_000_000).setNanos(120_000_000).build();
    private static final Task TASK = Task.newBuilder().setId("t1").setContextId("c1")
            .setStatus(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_WORKING).setTimestamp(T))
            .addArtifacts(Artifact.newBuilder().setArtifactId("a1").addParts(Part.newBuilder().setText("x")))
            .addHistory(USER).build();

    static Stream<Message> everyMessageKind() {
        return Stream.of(
                USER,
                TASK,
                SendMessageRequest.newBuilder().setMessage(USER).build(),
                StreamResponse.newBuilder().setTask(TASK).build(),
                StreamResponse.newBuilder().setMessage(USER).build(),
                StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder().setTaskId("t1")
                        .setContextId("c1").setStatus(TASK.getStatus())).build(),
                StreamResponse.newBuilder().setArtifactUpdate(TaskArtifactUpdateEvent.newBuilder().setTaskId("t1")
                        .setContextId("c1").setArtifact(TASK.getArtifacts(0)).setAppend(true).setLastChunk(true)).build(),
                card());
    }

    static AgentCard card() {
        return AgentCard.newBuilder().setName("n").setDescription("d").setVersion("1")
                .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:1/")
                        .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true).setPushNotifications(false))
                .putSecuritySchemes("bearer", SecurityScheme.newBuilder().setHttpAuthSecurityScheme(
                        HTTPAuthSecurityScheme.newBuilder().setScheme("Bearer")).build())
                .addSecurityRequirements(SecurityRequirement.newBuilder().putSchemes("bearer", StringList.getDefaultInstance()))
                .build();
    }

    @ParameterizedTest
    @MethodSource("everyMessageKind")
    void everyMessageKindSurvivesARoundTrip(Message message) {
        String json = ProtoJson.print(message);
        Message back = ProtoJson.parse(json, message.newBuilderForType()).build();
        assertThat(back).isEqualTo(message);
    }

    @Test
    void namesAreLowerCamelCaseEnumsFullNamesAndOneofsFlattened() {
        String json = ProtoJson.print(StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setTaskId("t1").setContextId("c1").setStatus(TASK.getStatus())).build());
        assertThat(json).isEqualTo("{\"statusUpdate\":{\"taskId\":\"t1\",\"contextId\":\"c1\",\"status\":"
                + "{\"state\":\"TASK_STATE_WORKING\",\"timestamp\":\"2026-05-28T20:26:40.120Z\"}}}");
        // PROTOCOL (A2A App. A.2.1): v1.0 has no "kind" discriminator and parts are flat.
        assertThat(ProtoJson.print(USER)).doesNotContain("kind").contains("{\"text\":\"hi\"}")
                .contains("\"raw\":\"Ynl0ZXM=\"");
    }

    @Test
    void defaultValuesAreOmittedButExplicitOptionalFalseIsKept() {
        String json = ProtoJson.print(card());
        assertThat(json).contains("\"pushNotifications\":false").doesNotContain("extendedAgentCard")
                .doesNotContain("\"tenant\"").contains("\"schemes\":{\"bearer\":{}}");
    }

    @Test
    void listTasksForcesTheRequiredFieldsEvenAtTheirDefaults() {
        String json = ProtoJson.printListTasks(ListTasksResponse.newBuilder().build(), false);
        assertThat(json).isEqualTo("{\"tasks\":[],\"nextPageToken\":\"\",\"pageSize\":0,\"totalSize\":0}");
    }

    @Test
    void listTasksWithArtifactsPrintsAnEmptyArtifactListButOtherwiseOmitsIt() {
        ListTasksResponse r = ListTasksResponse.newBuilder().addTasks(TASK.toBuilder().clearArtifacts()).setPageSize(50)
                .setTotalSize(1).build();
        assertThat(ProtoJson.printListTasks(r, true)).contains("\"artifacts\":[]");
        assertThat(ProtoJson.printListTasks(r, false)).doesNotContain("artifacts");
    }

    @Test
    void parsingIgnoresUnknownFieldsAndAcceptsSnakeCase() {
        lf.a2a.v1.Message m = ProtoJson.parse(
                "{\"message_id\":\"m\",\"role\":\"ROLE_USER\",\"kind\":\"message\",\"future\":{\"x\":1},\"context_id\":\"c\"}",
                lf.a2a.v1.Message.newBuilder()).build();
        assertThat(m.getMessageId()).isEqualTo("m");
        assertThat(m.getContextId()).isEqualTo("c");
    }

    @Test
    void anUnknownEnumValueLeavesTheDefaultInsteadOfFailing() {
        // A v0.3 peer sends "user"; a newer one may send a state this build does not know.
        lf.a2a.v1.Message m = ProtoJson.parse("{\"messageId\":\"m\",\"role\":\"user\"}",
                lf.a2a.v1.Message.newBuilder()).build();
        assertThat(m.getRole()).isEqualTo(Role.ROLE_UNSPECIFIED);
        assertThat(m.getMessageId()).isEqualTo("m");
    }

    @Test
    void wrongFieldTypesAreInvalidParamsNamingTheType() {
        assertThatThrownBy(() -> ProtoJson.parse("{\"message\":{\"parts\":\"not a list\"}}", SendMessageRequest.newBuilder()))
                .isInstanceOf(A2aException.class)
                .satisfies(e -> {
                    assertThat(((A2aException) e).error()).isEqualTo(A2aError.INVALID_PARAMS);
                    assertThat(e.getMessage()).startsWith("invalid SendMessageRequest");
                });
    }
}
