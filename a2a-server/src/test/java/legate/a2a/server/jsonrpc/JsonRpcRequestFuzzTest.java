package legate.a2a.server.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Message;
import java.util.Map;
import java.util.function.Supplier;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.model.A2aMethods;
import legate.a2a.model.NestingLimit;
import legate.a2a.model.ProtoJson;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.StoredTask;
import legate.a2a.server.task.TaskEvent;
import legate.wire.json.WireJson;
import legate.wire.jsonrpc.JsonRpcCodec;
import legate.wire.jsonrpc.JsonRpcError;
import legate.wire.jsonrpc.JsonRpcException;
import legate.wire.jsonrpc.JsonRpcMessage;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskPushNotificationConfig;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;

/**
 * Fuzzes what the JSON-RPC binding reads of a request body, in the binding's order (A2A §9): the
 * JSON ({@link JsonRpcCodec#parseTree}), the envelope ({@link JsonRpcCodec#toRequest}) and the
 * params of the method it names, as the method table reads them (docs/fuzzing.md). Properties: a
 * body it refuses costs a {@link JsonRpcException} with -32700 or -32600, or an
 * {@link A2aException} INVALID_PARAMS (-32602), never another exception (which a caller would get
 * as -32603 and the log as a stack trace); and a SendMessage it accepts, stored by the in-memory
 * store as a finished task (kept encoded, as the SQL stores keep it), is read back unchanged.
 */
class JsonRpcRequestFuzzTest {
    private static final Map<String, Supplier<Message.Builder>> PARAMS = Map.of(
            A2aMethods.SEND_MESSAGE, SendMessageRequest::newBuilder,
            A2aMethods.SEND_STREAMING_MESSAGE, SendMessageRequest::newBuilder,
            A2aMethods.GET_TASK, GetTaskRequest::newBuilder,
            A2aMethods.LIST_TASKS, ListTasksRequest::newBuilder,
            A2aMethods.CANCEL_TASK, CancelTaskRequest::newBuilder,
            A2aMethods.SUBSCRIBE_TO_TASK, SubscribeToTaskRequest::newBuilder,
            A2aMethods.CREATE_PUSH_CONFIG, TaskPushNotificationConfig::newBuilder);

    // A2A's member names and values the byte mutator would take long to spell (Jazzer dictionary).
    @DictionaryEntries({
            "\"jsonrpc\"", "\"2.0\"", "\"method\"", "\"params\"", "\"SendMessage\"",
            "\"SendStreamingMessage\"", "\"GetTask\"", "\"ListTasks\"", "\"CancelTask\"", "\"message\"",
            "\"messageId\"", "\"role\"", "\"ROLE_USER\"", "\"parts\"", "\"text\"", "\"raw\"", "\"url\"",
            "\"data\"", "\"metadata\"", "\"contextId\"", "\"taskId\"", "\"configuration\"",
            "\"historyLength\"", "\"returnImmediately\"", "\"acceptedOutputModes\"", "\"extensions\"",
            "\"referenceTaskIds\"", "\"status\"", "\"state\"", "\"TASK_STATE_WORKING\"", "\"timestamp\"",
            "\"artifacts\"", "\"history\"", "\"pageSize\"", "\"pageToken\"", "\"id\"", "\"token\"",
            "\"authentication\"", "\"1970-01-01T00:00:00Z\"", "\\ud800", "\\udc00", "null", "true", "1e999",
            "-0"})
    @FuzzTest(maxDuration = "60s")
    void anyBodyIsReadOrRefusedWithItsJsonRpcCode(byte[] body) {
        JsonRpcMessage.Request request;
        try {
            JsonNode tree = JsonRpcCodec.parseTree(body);
            JsonRpcCodec.idJson(JsonRpcCodec.idOf(tree));
            request = JsonRpcCodec.toRequest(tree);
        } catch (JsonRpcException e) {
            assertThat(e.code()).isIn(JsonRpcError.PARSE_ERROR, JsonRpcError.INVALID_REQUEST);
            return;
        }
        Supplier<Message.Builder> builder = PARAMS.get(request.method());
        if (builder == null) {
            return; // -32601, whatever else the body holds
        }
        Message params;
        try {
            JsonNode p = request.params() == null ? WireJson.mapper().createObjectNode() : request.params();
            params = ProtoJson.read(p, "params", builder.get()).build();
        } catch (A2aException e) {
            assertThat(e.error()).isEqualTo(A2aError.INVALID_PARAMS);
            return;
        }
        if (params instanceof SendMessageRequest send) {
            storedAndReadBack(send);
        }
    }

    /**
     * The task a SendMessage starts, finished, through the in-memory store and back, once the nesting
     * limit every binding applies at input has let it through (issue 30, defect 1).
     */
    private static void storedAndReadBack(SendMessageRequest send) {
        try {
            NestingLimit.check(send, "params");
        } catch (A2aException e) {
            assertThat(e.error()).isEqualTo(A2aError.INVALID_PARAMS);
            return;
        }
        Task task = Task.newBuilder().setId("t").setContextId("c")
                .setStatus(TaskStatus.newBuilder().setState(TaskState.TASK_STATE_COMPLETED))
                .addHistory(send.getMessage()).setMetadata(send.getMetadata()).build();
        StreamResponse event = StreamResponse.newBuilder().setTask(task).build();
        InMemoryTaskStore store = new InMemoryTaskStore();
        store.append(new TaskEvent(1, event, task), true);
        assertThat(store.load("t")).map(StoredTask::task).contains(task);
        assertThat(store.eventsAfter("t", 0)).singleElement().satisfies(e -> assertThat(e.event()).isEqualTo(event));
    }
}
