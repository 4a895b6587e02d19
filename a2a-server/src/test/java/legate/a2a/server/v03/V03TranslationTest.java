package legate.a2a.server.v03;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.wire.json.WireJson;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.AuthenticationInfo;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskArtifactUpdateEvent;
import lf.a2a.v1.TaskPushNotificationConfig;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import lf.a2a.v1.TaskStatusUpdateEvent;
import org.junit.jupiter.api.Test;

/**
 * Every v0.3 shape Legate translates, each way it travels, as the v0.3 specification (A2A v0.3
 * §6, §7) and the rules of docs/peers.md §7 have it: one test per rule, named after it.
 */
class V03TranslationTest {
    private static JsonNode json(String text) throws Exception {
        return WireJson.mapper().readTree(text);
    }

    private static int invalidParams(Runnable r) {
        try {
            r.run();
        } catch (A2aException e) {
            assertThat(e.error()).isEqualTo(A2aError.INVALID_PARAMS);
            return e.error().code();
        }
        throw new AssertionError("no -32602");
    }

    // ------------------------------------------------------------------ parts (A2A v0.3 §6.5)

    @Test
    void aTextPartIsKindTextBothWays() throws Exception {
        Part p = V03Parts.toV1(json("{\"kind\":\"text\",\"text\":\"hi\",\"metadata\":{\"k\":1}}"), "p");
        assertThat(p.getText()).isEqualTo("hi");
        assertThat(p.getMetadata().getFieldsOrThrow("k").getNumberValue()).isEqualTo(1);
        assertThat(WireJson.write(V03Parts.toV03(p))).isEqualTo("{\"kind\":\"text\",\"text\":\"hi\",\"metadata\":{\"k\":1}}");
    }

    @Test
    void aFilePartWithBytesIsARawPartWithNameAndMimeTypeAsFilenameAndMediaType() throws Exception {
        Part p = V03Parts.toV1(json("{\"kind\":\"file\",\"file\":{\"bytes\":\"aGk=\",\"name\":\"a.txt\",\"mimeType\":\"text/plain\"}}"), "p");
        assertThat(p.getRaw().toStringUtf8()).isEqualTo("hi");
        assertThat(p.getFilename()).isEqualTo("a.txt");
        assertThat(p.getMediaType()).isEqualTo("text/plain");
        assertThat(V03Parts.toV03(p)).isEqualTo(json(
                "{\"kind\":\"file\",\"file\":{\"name\":\"a.txt\",\"mimeType\":\"text/plain\",\"bytes\":\"aGk=\"}}"));
    }

    @Test
    void aFilePartWithAUriIsAUrlPart() throws Exception {
        Part p = V03Parts.toV1(json("{\"kind\":\"file\",\"file\":{\"uri\":\"https://x/y.pdf\",\"mimeType\":\"application/pdf\"}}"), "p");
        assertThat(p.getUrl()).isEqualTo("https://x/y.pdf");
        assertThat(p.getMediaType()).isEqualTo("application/pdf");
        assertThat(V03Parts.toV03(p)).isEqualTo(json(
                "{\"kind\":\"file\",\"file\":{\"mimeType\":\"application/pdf\",\"uri\":\"https://x/y.pdf\"}}"));
    }

    @Test
    void aFileHasExactlyOneOfBytesAndUri() {
        invalidParams(() -> V03Parts.toV1(WireJson.mapper().createObjectNode().put("kind", "file")
                .set("file", WireJson.mapper().createObjectNode().put("bytes", "aGk=").put("uri", "https://x")), "p"));
        invalidParams(() -> V03Parts.toV1(WireJson.mapper().createObjectNode().put("kind", "file")
                .set("file", WireJson.mapper().createObjectNode()), "p"));
        assertThatThrownBy(() -> V03Parts.toV1(json("{\"kind\":\"file\",\"file\":{\"bytes\":\"not base64!\"}}"), "p"))
                .hasMessageContaining("p.file.bytes must be base64");
    }

    @Test
    void aDataPartIsKindDataAndItsObjectIsTheValue() throws Exception {
        Part p = V03Parts.toV1(json("{\"kind\":\"data\",\"data\":{\"words\":3,\"top\":[\"a\",null,true]}}"), "p");
        assertThat(p.getData().getStructValue().getFieldsOrThrow("words").getNumberValue()).isEqualTo(3);
        assertThat(V03Parts.toV03(p)).isEqualTo(json("{\"kind\":\"data\",\"data\":{\"words\":3,\"top\":[\"a\",null,true]}}"));
    }

    @Test
    void aV1DataPartThatIsNoObjectIsWrappedAsValueWithTheCompatFlagAndUnwrappedComingBack() throws Exception {
        Part list = Part.newBuilder().setData(Value.newBuilder().setListValue(ListValue.newBuilder()
                .addValues(Value.newBuilder().setNumberValue(1.5)))).build();
        ObjectNode out = V03Parts.toV03(list);
        assertThat(out).isEqualTo(json("{\"kind\":\"data\",\"data\":{\"value\":[1.5]},\"metadata\":{\"data_part_compat\":true}}"));
        Part back = V03Parts.toV1(out, "p");
        assertThat(back).isEqualTo(list);
    }

    @Test
    void aV1TextPartsMediaTypeHasNoPlaceInV03AndIsDropped() {
        Part p = Part.newBuilder().setText("x").setMediaType("text/markdown").setFilename("n.md").build();
        assertThat(V03Parts.toV03(p).toString()).isEqualTo("{\"kind\":\"text\",\"text\":\"x\"}");
    }

    @Test
    void aPartWithoutKindOrWithAnUnknownOneIsInvalidParamsNamingThePath() {
        assertThatThrownBy(() -> V03Parts.toV1(json("{\"text\":\"hi\"}"), "params.message.parts[0]"))
                .hasMessageContaining("params.message.parts[0].kind is required");
        assertThatThrownBy(() -> V03Parts.toV1(json("{\"kind\":\"image\"}"), "p"))
                .isInstanceOf(A2aException.class).hasMessageContaining("\"image\"");
        invalidParams(() -> V03Parts.toV1(WireJson.mapper().createObjectNode().put("kind", "data").put("data", 3), "p"));
    }

    // ------------------------------------------------------------------ messages (A2A v0.3 §6.4)

    @Test
    void aMessageHasKindMessageAndTheRolesUserAndAgent() throws Exception {
        JsonNode in = json("{\"kind\":\"message\",\"messageId\":\"m1\",\"role\":\"user\",\"contextId\":\"c\",\"taskId\":\"t\","
                + "\"parts\":[{\"kind\":\"text\",\"text\":\"hi\"}],\"extensions\":[\"urn:x\"],\"referenceTaskIds\":[\"t0\"],"
                + "\"metadata\":{\"a\":\"b\"}}");
        Message m = V03Messages.toV1(in, "m");
        assertThat(m.getRole()).isEqualTo(Role.ROLE_USER);
        assertThat(m.getExtensionsList()).containsExactly("urn:x");
        assertThat(m.getReferenceTaskIdsList()).containsExactly("t0");
        assertThat(V03Messages.toV03(m)).isEqualTo(in);
        assertThat(V03Messages.toV03(m.toBuilder().setRole(Role.ROLE_AGENT).build()).get("role").asText()).isEqualTo("agent");
    }

    @Test
    void aMessageNeedsAMessageIdARoleOfV03AndPartsAndNoOtherKind() {
        invalidParams(() -> V03Messages.toV1(WireJson.mapper().createObjectNode().put("role", "user")
                .set("parts", WireJson.mapper().createArrayNode()), "m"));
        assertThatThrownBy(() -> V03Messages.toV1(json("{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[]}"), "m"))
                .hasMessageContaining("m.role must be \"user\" or \"agent\"");
        assertThatThrownBy(() -> V03Messages.toV1(json("{\"messageId\":\"m\",\"role\":\"user\"}"), "m"))
                .hasMessageContaining("m.parts is required");
        assertThatThrownBy(() -> V03Messages.toV1(json("{\"kind\":\"task\",\"messageId\":\"m\",\"role\":\"user\",\"parts\":[]}"), "m"))
                .hasMessageContaining("m.kind must be \"message\"");
    }

    // ------------------------------------------------------------------ tasks and states (§6.1-6.3)

    @Test
    void everyStateHasItsLowerCaseKebabNameAndBack() {
        for (TaskState s : TaskState.values()) {
            if (s == TaskState.UNRECOGNIZED) {
                continue;
            }
            String v03 = V03States.toV03(s);
            assertThat(v03).matches("[a-z]+(-[a-z]+)?");
            assertThat(V03States.toV1(v03)).isEqualTo(s);
        }
        assertThat(V03States.toV03(TaskState.TASK_STATE_INPUT_REQUIRED)).isEqualTo("input-required");
        assertThat(V03States.toV03(TaskState.TASK_STATE_UNSPECIFIED)).isEqualTo("unknown");
    }

    @Test
    void aTaskHasKindTaskItsStatusTimestampAsIsoAndComesBackTheSame() throws Exception {
        Task t = Task.newBuilder().setId("t").setContextId("c")
                .setStatus(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_INPUT_REQUIRED)
                        .setTimestamp(Timestamp.newBuilder().setSeconds(1_772_359_200L).setNanos(120_000_000))
                        .setMessage(Message.newBuilder().setMessageId("q").setRole(Role.ROLE_AGENT)
                                .addParts(Part.newBuilder().setText("which?"))))
                .addHistory(Message.newBuilder().setMessageId("m").setRole(Role.ROLE_USER).addParts(Part.newBuilder().setText("hi")))
                .addArtifacts(Artifact.newBuilder().setArtifactId("a").setName("stats")
                        .addParts(Part.newBuilder().setRaw(ByteString.copyFromUtf8("x"))))
                .setMetadata(Struct.newBuilder().putFields("k", Value.newBuilder().setBoolValue(true).build()))
                .build();
        ObjectNode out = V03Tasks.task(t);
        assertThat(out.get("kind").asText()).isEqualTo("task");
        assertThat(out.at("/status/state").asText()).isEqualTo("input-required");
        assertThat(out.at("/status/timestamp").asText()).isEqualTo("2026-03-01T10:00:00.120Z");
        assertThat(out.at("/status/message/kind").asText()).isEqualTo("message");
        assertThat(out.at("/history/0/role").asText()).isEqualTo("user");
        assertThat(out.at("/artifacts/0/parts/0/kind").asText()).isEqualTo("file");
        assertThat(V03Tasks.taskToV1(out, "t")).isEqualTo(t);
    }

    // ------------------------------------------------------------------ stream events (§7.2)

    @Test
    void aStatusUpdateIsFinalExactlyWhenItsStateEndsTheTurn() {
        for (TaskState s : new TaskState[] {TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING}) {
            assertThat(V03Events.toV03(update(s)).get("final").asBoolean()).as(s.name()).isFalse();
        }
        for (TaskState s : new TaskState[] {TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED,
                TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED, TaskState.TASK_STATE_INPUT_REQUIRED,
                TaskState.TASK_STATE_AUTH_REQUIRED}) {
            assertThat(V03Events.toV03(update(s)).get("final").asBoolean()).as(s.name()).isTrue();
        }
        ObjectNode out = V03Events.toV03(update(TaskState.TASK_STATE_WORKING));
        assertThat(out.get("kind").asText()).isEqualTo("status-update");
        assertThat(V03Events.toV1(out, "r")).isEqualTo(update(TaskState.TASK_STATE_WORKING));
    }

    private static StreamResponse update(TaskState s) {
        return StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder().setTaskId("t")
                .setContextId("c").setStatus(TaskStatus.newBuilder().setState(s))).build();
    }

    @Test
    void anArtifactUpdateIsKindArtifactUpdateWithAppendAndLastChunk() {
        StreamResponse e = StreamResponse.newBuilder().setArtifactUpdate(TaskArtifactUpdateEvent.newBuilder()
                .setTaskId("t").setContextId("c").setLastChunk(true)
                .setArtifact(Artifact.newBuilder().setArtifactId("a").addParts(Part.newBuilder().setText("x")))).build();
        ObjectNode out = V03Events.toV03(e);
        assertThat(out.get("kind").asText()).isEqualTo("artifact-update");
        assertThat(out.get("append").asBoolean()).isFalse();
        assertThat(out.get("lastChunk").asBoolean()).isTrue();
        assertThat(V03Events.toV1(out, "r")).isEqualTo(e);
    }

    @Test
    void aStreamResultIsTheBareTaskOrMessageToldApartByKind() {
        Task t = Task.newBuilder().setId("t").setContextId("c").setStatus(TaskStatus.newBuilder()
                .setState(TaskState.TASK_STATE_SUBMITTED)).build();
        StreamResponse task = StreamResponse.newBuilder().setTask(t).build();
        assertThat(V03Events.toV03(task).get("kind").asText()).isEqualTo("task");
        assertThat(V03Events.toV1(V03Events.toV03(task), "r")).isEqualTo(task);
        StreamResponse message = StreamResponse.newBuilder().setMessage(Message.newBuilder().setMessageId("m")
                .setRole(Role.ROLE_AGENT).setContextId("c").addParts(Part.newBuilder().setText("hi"))).build();
        assertThat(V03Events.toV1(V03Events.toV03(message), "r")).isEqualTo(message);
    }

    // ------------------------------------------------------------------ requests (§7.1-7.4, §7.9)

    @Test
    void blockingIsTheOppositeOfReturnImmediatelyAndAbsentIsBlocking() throws Exception {
        String message = "\"message\":{\"kind\":\"message\",\"messageId\":\"m\",\"role\":\"user\",\"parts\":[]}";
        SendMessageRequest absent = V03Requests.sendMessage(json("{" + message + ",\"configuration\":{}}"));
        assertThat(absent.getConfiguration().getReturnImmediately()).isFalse();
        assertThat(V03Requests.sendMessage(json("{" + message + ",\"configuration\":{\"blocking\":false,"
                + "\"historyLength\":2,\"acceptedOutputModes\":[\"text/plain\"]}}")).getConfiguration())
                .satisfies(c -> {
                    assertThat(c.getReturnImmediately()).isTrue();
                    assertThat(c.getHistoryLength()).isEqualTo(2);
                    assertThat(c.getAcceptedOutputModesList()).containsExactly("text/plain");
                });
        assertThat(V03Requests.sendMessage(json("{" + message + ",\"configuration\":{\"blocking\":true}}"))
                .getConfiguration().getReturnImmediately()).isFalse();
    }

    @Test
    void taskQueryAndTaskIdParamsNeedAnId() throws Exception {
        assertThat(V03Requests.getTask(json("{\"id\":\"t\",\"historyLength\":0}")).getHistoryLength()).isZero();
        assertThat(V03Requests.getTask(json("{\"id\":\"t\"}")).hasHistoryLength()).isFalse();
        assertThat(V03Requests.cancelTask(json("{\"id\":\"t\",\"metadata\":{\"why\":\"x\"}}")).getMetadata()
                .getFieldsOrThrow("why").getStringValue()).isEqualTo("x");
        assertThat(V03Requests.resubscribe(json("{\"id\":\"t\"}")).getId()).isEqualTo("t");
        assertThatThrownBy(() -> V03Requests.getTask(json("{\"id\":7}"))).hasMessageContaining("params.id must be a string");
        assertThatThrownBy(() -> V03Requests.cancelTask(json("{}"))).hasMessageContaining("params.id is required");
        assertThatThrownBy(() -> V03Requests.getTask(json("{\"id\":\"t\",\"historyLength\":\"2\"}")))
                .hasMessageContaining("params.historyLength must be an integer");
    }

    // ------------------------------------------------------------------ push configs (§6.8-6.10, §7.5-7.8)

    @Test
    void aPushConfigIsNestedInV03AndFlatInV1AndTheFirstSchemeIsKept() throws Exception {
        TaskPushNotificationConfig c = V03PushConfigs.setToV1(json("{\"taskId\":\"t\",\"pushNotificationConfig\":"
                + "{\"id\":\"p\",\"url\":\"https://hook\",\"token\":\"tok\",\"authentication\":{\"schemes\":[\"Bearer\",\"Basic\"],"
                + "\"credentials\":\"secret\"}}}"));
        assertThat(c).isEqualTo(TaskPushNotificationConfig.newBuilder().setTaskId("t").setId("p").setUrl("https://hook")
                .setToken("tok").setAuthentication(AuthenticationInfo.newBuilder().setScheme("Bearer")
                        .setCredentials("secret")).build());
        assertThat(V03PushConfigs.toV03(c)).isEqualTo(json("{\"taskId\":\"t\",\"pushNotificationConfig\":{\"id\":\"p\","
                + "\"url\":\"https://hook\",\"token\":\"tok\",\"authentication\":{\"schemes\":[\"Bearer\"],\"credentials\":\"secret\"}}}"));
    }

    @Test
    void aPushConfigWithoutAnIdIsTheTasksDefaultOneInSetAndGet() throws Exception {
        assertThat(V03PushConfigs.setToV1(json("{\"taskId\":\"t\",\"pushNotificationConfig\":{\"url\":\"https://h\"}}"))
                .getId()).isEqualTo("t");
        assertThat(V03PushConfigs.getToV1(json("{\"id\":\"t\"}")).getId()).isEqualTo("t");
        assertThat(V03PushConfigs.getToV1(json("{\"id\":\"t\",\"pushNotificationConfigId\":\"p\"}")).getId()).isEqualTo("p");
        assertThat(V03PushConfigs.listToV1(json("{\"id\":\"t\"}")).getTaskId()).isEqualTo("t");
        assertThat(V03PushConfigs.deleteToV1(json("{\"id\":\"t\",\"pushNotificationConfigId\":\"p\"}")).getId()).isEqualTo("p");
        assertThatThrownBy(() -> V03PushConfigs.deleteToV1(json("{\"id\":\"t\"}")))
                .hasMessageContaining("params.pushNotificationConfigId is required");
        assertThatThrownBy(() -> V03PushConfigs.setToV1(json("{\"taskId\":\"t\",\"pushNotificationConfig\":{}}")))
                .hasMessageContaining("params.pushNotificationConfig.url is required");
    }
}
