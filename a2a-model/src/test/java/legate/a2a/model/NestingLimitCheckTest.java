package legate.a2a.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.ListValue;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import java.util.List;
import java.util.function.Function;
import legate.wire.json.WireJson;
import lf.a2a.v1.ListTasksResponse;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskStatus;
import lf.a2a.v1.TaskStatusUpdateEvent;
import org.junit.jupiter.api.Test;

/**
 * {@link NestingLimit}: how deep it counts, what it names, and that its number is one that every
 * place a caller's value ends up can still decode (issue 30, defect 1).
 *
 * <p>DEFECT: metadata nesting 34 objects was accepted (the JSON reader allows 64 levels), stored,
 * and then refused by protobuf's decoder (100 levels at most, three per JSON object): GetTask,
 * ListTasks and the next start all failed on it.
 */
class NestingLimitCheckTest {
    /** {"k":{"k":...{"k":"x"}}}: {@code levels} objects, one inside the other. */
    private static Value objects(int levels) {
        Value v = Value.newBuilder().setStringValue("x").build();
        for (int i = 0; i < levels; i++) {
            v = Value.newBuilder().setStructValue(Struct.newBuilder().putFields("k", v)).build();
        }
        return v;
    }

    /** [[...["x"]]]: {@code levels} arrays, one inside the other. */
    private static Value arrays(int levels) {
        Value v = Value.newBuilder().setStringValue("x").build();
        for (int i = 0; i < levels; i++) {
            v = Value.newBuilder().setListValue(ListValue.newBuilder().addValues(v)).build();
        }
        return v;
    }

    private static Message message(Value data) {
        return Message.newBuilder().setMessageId("m").setRole(Role.ROLE_AGENT).addParts(Part.newBuilder().setData(data))
                .build();
    }

    private static Task task(Value data) {
        return Task.newBuilder().setId("t").setContextId("c").setStatus(TaskStatus.newBuilder().setMessage(message(data)))
                .build();
    }

    /**
     * The most object levels a value in {@code holder} can nest and still decode from its bytes, scanned
     * up to what the JSON reader lets through at all.
     */
    private static <M extends MessageLite> int deepestDecodable(Function<Value, M> holder, Parser<M> parser) {
        int deepest = 0;
        for (int levels = 1; levels <= WireJson.MAX_NESTING_DEPTH; levels++) {
            try {
                parser.parseFrom(holder.apply(objects(levels)).toByteArray());
                deepest = levels;
            } catch (InvalidProtocolBufferException e) {
                return deepest;
            }
        }
        return deepest;
    }

    // Objects are the costly case: three protobuf levels each (Value, Struct, its map entry), where an
    // array costs two. The deepest places a caller's value is kept: the task's status message (the
    // stores' task record, GetTask over gRPC), a status update (the stores' event log, a stream), and
    // a task inside ListTasksResponse (a gRPC client's page). Each must decode past the limit, with
    // a level to spare.
    @Test
    void everyPlaceAValueIsKeptDecodesItAtTheLimitWithALevelToSpare() {
        int task = deepestDecodable(NestingLimitCheckTest::task, Task.parser());
        int event = deepestDecodable(v -> StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setStatus(TaskStatus.newBuilder().setMessage(message(v)))).build(), StreamResponse.parser());
        int page = deepestDecodable(v -> ListTasksResponse.newBuilder().addTasks(task(v)).build(), ListTasksResponse.parser());
        int request = deepestDecodable(v -> SendMessageRequest.newBuilder().setMessage(message(v)).build(),
                SendMessageRequest.parser());

        assertThat(List.of(task, event, page, request)).as("task, event, page, request")
                .allSatisfy(d -> assertThat(d).isGreaterThanOrEqualTo(NestingLimit.MAX_DEPTH + 1));
        // The number the issue reported does not decode where a task is stored: why there is a limit at all.
        assertThat(task).isLessThan(34);
    }

    @Test
    void objectsAndArraysEachCountOneLevel() {
        assertThat(NestingLimit.depth(Value.newBuilder().setNumberValue(1).build())).isZero();
        assertThat(NestingLimit.depth(objects(3))).isEqualTo(3);
        assertThat(NestingLimit.depth(arrays(3))).isEqualTo(3);
        Value mixed = Value.newBuilder().setStructValue(Struct.newBuilder().putFields("a", arrays(2))
                .putFields("b", objects(4))).build();
        assertThat(NestingLimit.depth(mixed)).isEqualTo(5);
    }

    @Test
    void valuesAtTheLimitPass() {
        SendMessageRequest atLimit = SendMessageRequest.newBuilder().setMessage(message(arrays(NestingLimit.MAX_DEPTH)).toBuilder()
                .setMetadata(objects(NestingLimit.MAX_DEPTH).getStructValue())).build();

        assertThatCode(() -> NestingLimit.check(atLimit, "params")).doesNotThrowAnyException();
    }

    @Test
    void oneLevelPastIsInvalidParamsNamingTheFieldAndTheLimit() {
        SendMessageRequest data = SendMessageRequest.newBuilder().setMessage(message(arrays(NestingLimit.MAX_DEPTH + 1)))
                .build();
        SendMessageRequest metadata = SendMessageRequest.newBuilder().setMessage(message(objects(1)).toBuilder()
                .setMetadata(objects(NestingLimit.MAX_DEPTH + 1).getStructValue())).build();

        A2aException dataRefused = catchThrowableOfType(A2aException.class, () -> NestingLimit.check(data, "params"));
        A2aException metadataRefused = catchThrowableOfType(A2aException.class, () -> NestingLimit.check(metadata, ""));

        assertThat(dataRefused.error()).isEqualTo(A2aError.INVALID_PARAMS);
        assertThat(dataRefused.getMessage()).startsWith("params.message.parts[0].data ")
                .contains("at most " + NestingLimit.MAX_DEPTH + " levels");
        assertThat(metadataRefused.error()).isEqualTo(A2aError.INVALID_PARAMS);
        assertThat(metadataRefused.getMessage()).startsWith("message.metadata ");
    }

    // A value far deeper than any reader would build costs the check no more than the limit's own
    // depth of recursion: no StackOverflowError, the same refusal.
    @Test
    void aHostileDepthIsRefusedWithoutRecursingThroughIt() {
        SendMessageRequest hostile = SendMessageRequest.newBuilder().setMessage(message(objects(50_000))).build();

        A2aException refused = catchThrowableOfType(A2aException.class, () -> NestingLimit.check(hostile, ""));

        assertThat(refused.error()).isEqualTo(A2aError.INVALID_PARAMS);
        // Counted up to one past the limit, no further.
        assertThat(NestingLimit.depth(objects(50_000))).isEqualTo(NestingLimit.MAX_DEPTH + 1);
        assertThat(NestingLimit.depth(arrays(NestingLimit.MAX_DEPTH + 1))).isEqualTo(NestingLimit.MAX_DEPTH + 1);
    }
}
