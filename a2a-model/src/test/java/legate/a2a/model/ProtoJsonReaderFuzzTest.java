package legate.a2a.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Message;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import legate.wire.json.WireJson;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskPushNotificationConfig;

/**
 * Fuzzes the ProtoJSON reader ({@link ProtoJson#read}) with arbitrary JSON, as a caller's params
 * (the server) or a peer's results and cards (the client) reach it (docs/fuzzing.md). The first
 * byte picks the type read, the rest is the JSON. Properties: what it refuses is an
 * {@link A2aException} INVALID_PARAMS, never another exception (a caller would get -32603 and the
 * log a stack trace); what it accepts comes back unchanged from the form every store keeps it in.
 */
class ProtoJsonReaderFuzzTest {
    private static final List<Supplier<Message.Builder>> TYPES = List.of(
            SendMessageRequest::newBuilder, TaskPushNotificationConfig::newBuilder, ListTasksRequest::newBuilder,
            Task::newBuilder, StreamResponse::newBuilder, AgentCard::newBuilder);

    // A2A's member names and values the byte mutator would take long to spell (Jazzer dictionary).
    @DictionaryEntries({
            "\"message\"", "\"messageId\"", "\"role\"", "\"ROLE_USER\"", "\"parts\"", "\"text\"", "\"raw\"",
            "\"url\"", "\"data\"", "\"metadata\"", "\"contextId\"", "\"taskId\"", "\"configuration\"",
            "\"historyLength\"", "\"returnImmediately\"", "\"acceptedOutputModes\"", "\"extensions\"",
            "\"referenceTaskIds\"", "\"status\"", "\"state\"", "\"TASK_STATE_WORKING\"", "\"timestamp\"",
            "\"artifacts\"", "\"history\"", "\"pageSize\"", "\"pageToken\"", "\"id\"", "\"token\"",
            "\"authentication\"", "\"1970-01-01T00:00:00Z\"", "\\ud800", "\\udc00", "null", "true", "1e999",
            "-0"})
    @FuzzTest(maxDuration = "60s")
    void anyJsonIsReadOrRefusedAsInvalidParams(byte[] input) {
        if (input.length == 0) {
            return;
        }
        Message.Builder builder = TYPES.get((input[0] & 0xff) % TYPES.size()).get();
        JsonNode json;
        try {
            json = WireJson.mapper().readTree(Arrays.copyOfRange(input, 1, input.length));
        } catch (IOException e) {
            return; // not JSON at all: the binding's -32700, fuzzed in JsonRpcRequestFuzzTest
        }
        if (json == null || json.isMissingNode()) {
            return;
        }
        Message accepted;
        try {
            accepted = ProtoJson.read(json, "params", builder).build();
        } catch (A2aException e) {
            assertThat(e.error()).isEqualTo(A2aError.INVALID_PARAMS);
            return;
        }
        StoredForm.survives(accepted);
    }
}
