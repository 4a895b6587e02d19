package legate.a2a.server.grpc;

import static legate.a2a.server.grpc.GrpcBindingTest.send;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Arrays;
import java.util.List;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.testsupport.Cleanup;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The gRPC listener answers the same host names as the HTTP ones (issue 30, defect 3; README "Host
 * names and web pages"): a call whose HTTP/2 {@code :authority} is not a name the server is known
 * by is closed PERMISSION_DENIED, naming the name and ALLOWED_HOSTS, before its request is read or
 * its credential checked. Before the fix the gRPC port ran a SendMessage for any authority.
 */
class GrpcAuthorityTest {
    private static final String REBIND = "rebind.attacker.example";
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private GrpcAgent agent;

    @BeforeEach
    void start() throws Exception {
        agent = new GrpcAgent(cleanup, ServerConfig.loopback(0).withGrpcPublicAddress("grpc.example.test:8443")
                .withEdge(ServerEdge.PLAIN.withAllowedHosts(List.of("proxy.example.test"))));
    }

    private A2AServiceGrpc.A2AServiceBlockingStub as(String authority) {
        return agent.stubNaming(authority);
    }

    private int tasks() {
        return agent.stub().listTasks(ListTasksRequest.getDefaultInstance()).getTasksCount();
    }

    @Test
    void aForeignAuthorityIsRefusedClearlyAndRunsNothing() {
        String authority = REBIND + ":" + agent.server.grpcPort();
        int before = tasks();

        StatusRuntimeException send = catchThrowableOfType(StatusRuntimeException.class,
                () -> as(authority).sendMessage(send(GrpcAgent.message("hi"))));
        StatusRuntimeException stream = catchThrowableOfType(StatusRuntimeException.class,
                () -> GrpcBindingTest.drain(as(authority).sendStreamingMessage(send(GrpcAgent.message("hi")))));
        StatusRuntimeException read = catchThrowableOfType(StatusRuntimeException.class,
                () -> as(authority).getTask(GetTaskRequest.newBuilder().setId("x").build()));

        for (StatusRuntimeException e : Arrays.asList(send, stream, read)) {
            assertThat(e).as("the call is refused").isNotNull();
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
            assertThat(e.getStatus().getDescription()).contains("\"" + authority + "\"").contains("ALLOWED_HOSTS")
                    .doesNotContain("Exception");
        }
        assertThat(tasks()).as("no task was created for a foreign authority").isEqualTo(before);
    }

    @Test
    void theAddressDialledLoopbackNamesAdvertisedAddressAndAllowedHostsAreAnswered() {
        int port = agent.server.grpcPort();
        for (String authority : List.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port, "LOCALHOST",
                "grpc.example.test:8443", "proxy.example.test:443")) {
            assertThat(as(authority).sendMessage(send(GrpcAgent.message("hi"))).getTask().getStatus().getState())
                    .as(authority).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        }
        assertThat(agent.stub().sendMessage(send(GrpcAgent.message("hi"))).getTask().getStatus().getState())
                .as("grpc-java's default authority, the target dialled").isEqualTo(TaskState.TASK_STATE_COMPLETED);
    }
}
