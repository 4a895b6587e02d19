package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import legate.testsupport.StreamRecorder;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One conversation carried over two bindings of one agent (A2A §5: one data model under every
 * binding): begun over gRPC, continued and canceled over JSON-RPC and back, each side reading the
 * same task, field for field.
 */
class CrossBindingTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static A2aClient grpc;
    private static A2aClient jsonRpc;

    @BeforeAll
    static void start() throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"),
                new RevisorExecutor(Duration.ofMillis(150)));
        int port = cleanup.start("the Revisor server", server, AgentServer::start, AgentServer::openStreams);
        URI base = URI.create("http://127.0.0.1:" + port);
        grpc = cleanup.register(A2aClient.connect(base, ClientConfig.defaults().withBindings(List.of(Binding.GRPC_1_0))));
        jsonRpc = cleanup.register(A2aClient.connect(base, ClientConfig.defaults().withBindings(List.of(Binding.JSONRPC_1_0))));
    }

    private static Task read(A2aClient client, String id) {
        return client.getTask(GetTaskRequest.newBuilder().setId(id).build());
    }

    // PROTOCOL (A2A §3.1.1): the reply to INPUT_REQUIRED continues the task, whichever binding carries it.
    @Test
    void aQuestionAskedOverGrpcIsAnsweredOverJsonRpcAndBothReadTheSameTask() {
        assertThat(grpc.endpoint().getProtocolBinding()).isEqualTo("GRPC");
        assertThat(jsonRpc.endpoint().getProtocolBinding()).isEqualTo("JSONRPC");
        Task asked = grpc.send(UserMessage.text("")).getTask();
        assertThat(asked.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_INPUT_REQUIRED);
        assertThat(read(jsonRpc, asked.getId())).isEqualTo(read(grpc, asked.getId()));

        StreamRecorder answer = new StreamRecorder();
        jsonRpc.stream(UserMessage.text("One two. Three!", asked.getId(), asked.getContextId()), answer::onEvent);
        assertThat(answer.states()).last().isEqualTo(TaskState.TASK_STATE_COMPLETED);

        Task overGrpc = read(grpc, asked.getId());
        assertThat(overGrpc.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(overGrpc).isEqualTo(read(jsonRpc, asked.getId()));
        assertThat(overGrpc.getArtifactsCount()).isEqualTo(1);
    }

    // PROTOCOL (A2A §3.1.5): a task streamed over gRPC is canceled over JSON-RPC; the gRPC stream ends CANCELED.
    @Test
    void aTaskStreamedOverGrpcIsCanceledOverJsonRpc() {
        StreamRecorder events = new StreamRecorder();
        StreamEnd end = grpc.stream(UserMessage.text("Take your time. Please."), event -> {
            events.onEvent(event);
            if (event.hasTask()) {
                Thread.ofVirtual().start(() -> jsonRpc.cancelTask(event.getTask().getId()));
            }
            return true;
        });
        assertThat(end.lastState()).isEqualTo(TaskState.TASK_STATE_CANCELED);
        String id = events.events().getFirst().getTask().getId();
        assertThat(read(grpc, id)).isEqualTo(read(jsonRpc, id));
    }
}
