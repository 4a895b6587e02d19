package legate.a2a.server.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.google.rpc.ErrorInfo;
import io.grpc.CallOptions;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import legate.a2a.model.grpc.GrpcErrorMapping;
import legate.a2a.model.grpc.GrpcMetadata;
import legate.a2a.server.ServerConfig;
import legate.testsupport.Cleanup;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.GetExtendedAgentCardRequest;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.ListTasksResponse;
import lf.a2a.v1.ListTaskPushNotificationConfigsRequest;
import lf.a2a.v1.Message;
import lf.a2a.v1.SendMessageConfiguration;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskPushNotificationConfig;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The gRPC binding as a grpc-java client sees it (A2A §10): every rpc of lf.a2a.v1.A2AService over
 * a real loopback HTTP/2 connection, on the same request handler as JSON-RPC, and each failure as
 * the status code and ErrorInfo detail the spec names (§10.6, the 1.0.1 codes).
 */
class GrpcBindingTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private GrpcAgent agent;
    private A2AServiceGrpc.A2AServiceBlockingStub stub;

    @BeforeEach
    void start() throws Exception {
        agent = new GrpcAgent(cleanup, ServerConfig.loopback(0));
        stub = agent.stub();
    }

    // PROTOCOL (A2A §10, §3.1): each operation answers its proto message; a stream opens with the Task.
    @Test
    void everyMethodAnswersOverGrpcOnTheOneHandler() {
        Task done = stub.sendMessage(send(GrpcAgent.message("hello"))).getTask();
        assertThat(done.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);

        List<StreamResponse> events = drain(stub.sendStreamingMessage(send(GrpcAgent.message("again"))));
        assertThat(events.getFirst().hasTask()).isTrue();
        assertThat(states(events)).containsExactly(TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING,
                TaskState.TASK_STATE_COMPLETED);

        Task read = stub.getTask(GetTaskRequest.newBuilder().setId(done.getId()).build());
        assertThat(read.getId()).isEqualTo(done.getId());
        assertThat(read.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);

        ListTasksResponse list = stub.listTasks(ListTasksRequest.getDefaultInstance());
        assertThat(list.getTasksList()).extracting(Task::getId).contains(done.getId(), events.getFirst().getTask().getId());

        // A held task: subscribed to over gRPC, cancelled over gRPC, the subscription ending CANCELED.
        Task held = stub.sendMessage(SendMessageRequest.newBuilder().setMessage(GrpcAgent.message("hold"))
                .setConfiguration(SendMessageConfiguration.newBuilder().setReturnImmediately(true)).build()).getTask();
        Iterator<StreamResponse> subscription = stub.subscribeToTask(
                SubscribeToTaskRequest.newBuilder().setId(held.getId()).build());
        StreamResponse snapshot = subscription.next();
        assertThat(snapshot.getTask().getId()).isEqualTo(held.getId());
        Task canceled = stub.cancelTask(CancelTaskRequest.newBuilder().setId(held.getId()).build());
        assertThat(canceled.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        List<StreamResponse> rest = drain(subscription);
        assertThat(states(rest)).last().isEqualTo(TaskState.TASK_STATE_CANCELED);
        agent.release();
    }

    // The resumable streams extension on gRPC, whose messages carry no id: a stream's response
    // headers name its first message's id, and each message after it is the next event, so a
    // stream resumed after event 2 (last-event-id metadata) starts at 3 and holds the rest.
    @Test
    void aStreamsResponseHeadersNameItsFirstEventsId() {
        AtomicReference<Metadata> headers = new AtomicReference<>();
        A2AServiceGrpc.A2AServiceBlockingStub capturing = stub.withInterceptors(
                MetadataUtils.newCaptureMetadataInterceptor(headers, new AtomicReference<>()));
        List<StreamResponse> events = drain(capturing.sendStreamingMessage(send(GrpcAgent.message("again"))));
        assertThat(headers.get().get(GrpcMetadata.FIRST_EVENT_ID)).isEqualTo("1");
        assertThat(events).hasSizeGreaterThan(2);

        Metadata after = new Metadata();
        after.put(GrpcMetadata.LAST_EVENT_ID, "2");
        List<StreamResponse> resumed = drain(capturing.withInterceptors(MetadataUtils.newAttachHeadersInterceptor(after))
                .subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(events.getFirst().getTask().getId()).build()));
        assertThat(headers.get().get(GrpcMetadata.FIRST_EVENT_ID)).isEqualTo("3");
        assertThat(resumed).isEqualTo(events.subList(2, events.size()));
    }

    // PROTOCOL (A2A §3.1.1): an INPUT_REQUIRED task continues with a message into the same taskId.
    @Test
    void aQuestionIsAnsweredIntoTheSameTask() {
        Task asked = stub.sendMessage(send(GrpcAgent.message("ask"))).getTask();
        assertThat(asked.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        Message reply = GrpcAgent.message("this one").toBuilder().setTaskId(asked.getId()).build();
        List<StreamResponse> events = drain(stub.sendStreamingMessage(send(reply)));
        assertThat(states(events)).last().isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(events).allSatisfy(e -> assertThat(taskIdOf(e)).isEqualTo(asked.getId()));
    }

    // PROTOCOL (A2A 1.0.0 §10.6, §5.4): the status code of the gRPC column plus a google.rpc.ErrorInfo
    // of domain a2a-protocol.org; UnsupportedOperation and PushNotificationNotSupported are UNIMPLEMENTED
    // (A2A 1.0.1 and @a2a-js/sdk 1.2.0 send FAILED_PRECONDITION).
    @Test
    void errorsAreStatusesWithErrorInfo() {
        expect(() -> stub.getTask(GetTaskRequest.newBuilder().setId("no-such-task").build()),
                Status.Code.NOT_FOUND, "TASK_NOT_FOUND");
        Task done = stub.sendMessage(send(GrpcAgent.message("hello"))).getTask();
        expect(() -> stub.cancelTask(CancelTaskRequest.newBuilder().setId(done.getId()).build()),
                Status.Code.FAILED_PRECONDITION, "TASK_NOT_CANCELABLE");
        // A message into a terminal task is UnsupportedOperation (A2A §3.1.1), and so is subscribing to one.
        expect(() -> stub.sendMessage(send(GrpcAgent.message("more").toBuilder().setTaskId(done.getId()).build())),
                Status.Code.UNIMPLEMENTED, "UNSUPPORTED_OPERATION");
        expect(() -> drain(stub.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(done.getId()).build())),
                Status.Code.UNIMPLEMENTED, "UNSUPPORTED_OPERATION");
        expect(() -> stub.sendMessage(SendMessageRequest.getDefaultInstance()), Status.Code.INVALID_ARGUMENT, "INVALID_PARAMS");
        // The push rpcs reach the one handler (README "Push notifications"): an unknown task is NOT_FOUND, and a
        // webhook on a loopback address is refused by the SSRF guard as invalid params.
        expect(() -> stub.createTaskPushNotificationConfig(TaskPushNotificationConfig.newBuilder()
                .setTaskId("no-such-task").setUrl("https://hooks.example/a2a").build()),
                Status.Code.NOT_FOUND, "TASK_NOT_FOUND");
        expect(() -> stub.createTaskPushNotificationConfig(TaskPushNotificationConfig.newBuilder()
                .setTaskId(done.getId()).setUrl("http://127.0.0.1:9/hook").build()),
                Status.Code.INVALID_ARGUMENT, "INVALID_PARAMS");
        expect(() -> stub.listTaskPushNotificationConfigs(ListTaskPushNotificationConfigsRequest.newBuilder()
                .setTaskId("no-such-task").build()), Status.Code.NOT_FOUND, "TASK_NOT_FOUND");
        assertThat(stub.listTaskPushNotificationConfigs(ListTaskPushNotificationConfigsRequest.newBuilder()
                .setTaskId(done.getId()).build()).getConfigsList()).isEmpty();
        expect(() -> stub.getExtendedAgentCard(GetExtendedAgentCardRequest.getDefaultInstance()),
                Status.Code.UNIMPLEMENTED, "UNSUPPORTED_OPERATION");
    }

    // MAX_BODY_BYTES bounds a gRPC request message as it bounds a JSON-RPC body, and the server goes on.
    @Test
    void aMessageOverTheBodyLimitIsRefusedBeforeItIsRead() {
        Message huge = GrpcAgent.message("x".repeat(ServerConfig.DEFAULT_MAX_BODY_BYTES + 1));
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, () -> stub.sendMessage(send(huge)));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(stub.sendMessage(send(GrpcAgent.message("small"))).getTask().getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_COMPLETED);
    }

    // PROTOCOL (A2A §3.6): no a2a-version means 0.3, which this agent does not speak; A2A 1.0.0 §5.4:
    // VersionNotSupported is UNIMPLEMENTED.
    @Test
    void aCallWithoutA2aVersionIsRefused() {
        A2AServiceGrpc.A2AServiceBlockingStub unversioned = agent.stub(Map.of("a2a-version", ""));
        expect(() -> unversioned.getTask(GetTaskRequest.newBuilder().setId("x").build()),
                Status.Code.UNIMPLEMENTED, "VERSION_NOT_SUPPORTED");
        A2AServiceGrpc.A2AServiceBlockingStub patch = agent.stub(Map.of("a2a-version", "1.0.2"));
        expect(() -> patch.getTask(GetTaskRequest.newBuilder().setId("x").build()), Status.Code.NOT_FOUND, "TASK_NOT_FOUND");
    }

    // An rpc the service does not have is UNIMPLEMENTED (gRPC's own answer), and the server goes on.
    @Test
    void anUnknownMethodIsUnimplemented() {
        MethodDescriptor<GetTaskRequest, Task> unknown = MethodDescriptor.<GetTaskRequest, Task>newBuilder()
                .setType(MethodDescriptor.MethodType.UNARY)
                .setFullMethodName(MethodDescriptor.generateFullMethodName(A2AServiceGrpc.SERVICE_NAME, "GetTasks"))
                .setRequestMarshaller(ProtoUtils.marshaller(GetTaskRequest.getDefaultInstance()))
                .setResponseMarshaller(ProtoUtils.marshaller(Task.getDefaultInstance()))
                .build();
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(
                agent.channel(), unknown, CallOptions.DEFAULT, GetTaskRequest.newBuilder().setId("x").build()));
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNIMPLEMENTED);
        assertThat(stub.sendMessage(send(GrpcAgent.message("still here"))).getTask().getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_COMPLETED);
    }

    // PROTOCOL (A2A §8.3.2, §10): the card advertises gRPC as host:port of the gRPC listener's own port.
    @Test
    void theCardAdvertisesTheGrpcPortAsHostAndPort() {
        assertThat(agent.server.grpcPort()).isPositive().isNotEqualTo(agent.port);
        assertThat(agent.server.handler().card().getSupportedInterfacesList())
                .anySatisfy(i -> {
                    assertThat(i.getProtocolBinding()).isEqualTo("GRPC");
                    assertThat(i.getUrl()).isEqualTo("127.0.0.1:" + agent.server.grpcPort());
                });
    }

    // Two instances on one machine, each started with only PORT=0: neither gRPC port clashes.
    @Test
    void aSecondServerWithPortZeroStartsBesideTheFirst() throws Exception {
        GrpcAgent second = new GrpcAgent(cleanup, ServerConfig.loopback(0));
        assertThat(second.server.grpcPort()).isPositive().isNotEqualTo(agent.server.grpcPort());
        assertThat(second.stub().sendMessage(send(GrpcAgent.message("hi"))).getTask().getStatus().getState())
                .isEqualTo(TaskState.TASK_STATE_COMPLETED);
    }

    // The drain (SIGTERM): new turns are UNAVAILABLE, reads still answered, open streams end cleanly.
    @Test
    void aDrainingServerRefusesNewTurnsWithUnavailable() throws Exception {
        Task held = stub.sendMessage(SendMessageRequest.newBuilder().setMessage(GrpcAgent.message("hold"))
                .setConfiguration(SendMessageConfiguration.newBuilder().setReturnImmediately(true)).build()).getTask();
        Iterator<StreamResponse> stream = stub.subscribeToTask(SubscribeToTaskRequest.newBuilder().setId(held.getId()).build());
        assertThat(stream.next().hasTask()).isTrue();
        agent.server.handler().drain();
        StatusRuntimeException refused = catchThrowableOfType(StatusRuntimeException.class,
                () -> stub.sendMessage(send(GrpcAgent.message("new work"))));
        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
        assertThat(stub.getTask(GetTaskRequest.newBuilder().setId(held.getId()).build()).getId()).isEqualTo(held.getId());
        agent.release();
        assertThat(agent.server.drain(Duration.ofSeconds(10))).isTrue();
        assertThat(states(drain(stream))).last().isEqualTo(TaskState.TASK_STATE_COMPLETED);
    }

    // README "Metrics": each call counted once by binding, method and outcome, before its answer leaves.
    @Test
    void callsAreCountedUnderTheGrpcBinding() {
        stub.sendMessage(send(GrpcAgent.message("hello")));
        expect(() -> stub.getTask(GetTaskRequest.newBuilder().setId("no-such-task").build()), Status.Code.NOT_FOUND,
                "TASK_NOT_FOUND");
        String scrape = agent.server.metrics().scrape();
        assertThat(count(scrape, "SendMessage", "ok")).isEqualTo(1.0);
        assertThat(count(scrape, "GetTask", "-32001")).isEqualTo(1.0);
        assertThat(count(scrape, "GetTask", "ok")).isNull();
    }

    private static Double count(String scrape, String method, String outcome) {
        for (String line : scrape.split("\n")) {
            if (line.startsWith("legate_a2a_requests_seconds_count{") && line.contains("binding=\"grpc\"")
                    && line.contains("method=\"" + method + "\"") && line.contains("outcome=\"" + outcome + "\"")) {
                return Double.valueOf(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return null;
    }

    static SendMessageRequest send(Message m) {
        return SendMessageRequest.newBuilder().setMessage(m).build();
    }

    static List<StreamResponse> drain(Iterator<StreamResponse> events) {
        List<StreamResponse> all = new ArrayList<>();
        events.forEachRemaining(all::add);
        return all;
    }

    static List<TaskState> states(List<StreamResponse> events) {
        List<TaskState> states = new ArrayList<>();
        for (StreamResponse e : events) {
            if (e.hasTask()) {
                states.add(e.getTask().getStatus().getState());
            } else if (e.hasStatusUpdate()) {
                states.add(e.getStatusUpdate().getStatus().getState());
            }
        }
        return states;
    }

    private static String taskIdOf(StreamResponse e) {
        return switch (e.getPayloadCase()) {
            case TASK -> e.getTask().getId();
            case STATUS_UPDATE -> e.getStatusUpdate().getTaskId();
            case ARTIFACT_UPDATE -> e.getArtifactUpdate().getTaskId();
            case MESSAGE, PAYLOAD_NOT_SET -> "";
        };
    }

    static void expect(Runnable call, Status.Code code, String reason) {
        StatusRuntimeException e = catchThrowableOfType(StatusRuntimeException.class, call::run);
        assertThat(e).as("the call fails with " + code).isNotNull();
        assertThat(e.getStatus().getCode()).isEqualTo(code);
        ErrorInfo info = GrpcErrorMapping.errorInfo(e);
        assertThat(info).as("the ErrorInfo detail of " + e.getStatus()).isNotNull();
        assertThat(info.getReason()).isEqualTo(reason);
        assertThat(info.getDomain()).isEqualTo("a2a-protocol.org");
        assertThat(e.getStatus().getDescription()).isNotBlank().doesNotContain("Exception");
    }
}
