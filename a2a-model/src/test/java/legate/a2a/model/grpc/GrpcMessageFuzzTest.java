package legate.a2a.model.grpc;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.Parser;
import java.util.Arrays;
import java.util.List;
import legate.a2a.model.StoredForm;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.TaskPushNotificationConfig;

/**
 * Fuzzes the protobuf parse of the gRPC binding's request messages (A2A §10) with arbitrary bytes,
 * as grpc-java's marshaller parses a request body (docs/fuzzing.md). The first byte picks the
 * request type. Properties: bytes that are no such message cost an
 * {@link InvalidProtocolBufferException} (which the binding answers INVALID_ARGUMENT), never
 * another exception; a message that parses comes back unchanged from the form every store keeps.
 */
class GrpcMessageFuzzTest {
    private static final List<Parser<? extends Message>> REQUESTS = List.of(
            SendMessageRequest.parser(), GetTaskRequest.parser(), ListTasksRequest.parser(), CancelTaskRequest.parser(),
            SubscribeToTaskRequest.parser(), TaskPushNotificationConfig.parser());

    @FuzzTest(maxDuration = "60s")
    void anyBytesParseOrAreRefusedAsInvalidProtobuf(byte[] input) {
        if (input.length == 0) {
            return;
        }
        Message accepted;
        try {
            accepted = REQUESTS.get((input[0] & 0xff) % REQUESTS.size()).parseFrom(Arrays.copyOfRange(input, 1, input.length));
        } catch (InvalidProtocolBufferException e) {
            return;
        }
        StoredForm.survives(accepted);
    }
}
