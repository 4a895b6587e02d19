package legate.a2a.server.grpc;

import static legate.a2a.server.grpc.GrpcBindingTest.expect;
import static legate.a2a.server.grpc.GrpcBindingTest.send;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.ApiKeys;
import legate.a2a.server.auth.BearerTokens;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.TokensFile;
import legate.testsupport.Cleanup;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Authentication on the gRPC binding (A2A §7): the credential travels as metadata and is checked by
 * the same schemes as the JSON-RPC binding's headers; ownership is the request handler's, so
 * another principal's task is NOT_FOUND over gRPC as it is -32001 over JSON-RPC.
 */
class GrpcAuthenticationTest {
    private static final String ALICE = "alice-token-0123456789";
    private static final String BOB_KEY = "bob-key-0123456789abcdef";
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    private GrpcAgent securedAgent() throws Exception {
        Path tokens = dir.resolve("tokens");
        Files.writeString(tokens, "alice:" + ALICE + "\nbob:" + BOB_KEY + "\n");
        TokensFile file = new TokensFile(tokens);
        ServerSecurity security = new ServerSecurity(new CallerAuthentication(
                List.of(new BearerTokens(file), new ApiKeys("X-API-Key", file))), null, 0);
        return new GrpcAgent(cleanup, ServerConfig.loopback(0).withSecurity(security));
    }

    // PROTOCOL (A2A §3.3.2): no credential, or one no scheme accepts, is UNAUTHENTICATED, before any task is read.
    @Test
    void aMissingOrWrongCredentialIsUnauthenticated() throws Exception {
        GrpcAgent agent = securedAgent();
        expect(() -> agent.stub().sendMessage(send(GrpcAgent.message("hi"))), Status.Code.UNAUTHENTICATED, "UNAUTHENTICATED");
        A2AServiceGrpc.A2AServiceBlockingStub wrong = agent.stub(Map.of("authorization", "Bearer not-" + ALICE));
        expect(() -> wrong.getTask(GetTaskRequest.newBuilder().setId("x").build()), Status.Code.UNAUTHENTICATED,
                "UNAUTHENTICATED");
        // A refused stream is refused before its first event.
        expect(() -> GrpcBindingTest.drain(wrong.sendStreamingMessage(send(GrpcAgent.message("hi")))),
                Status.Code.UNAUTHENTICATED, "UNAUTHENTICATED");
    }

    // Bearer token and API key in metadata; each principal sees only its own tasks (README "Ownership").
    @Test
    void credentialsInMetadataProveAPrincipalWhoseTasksAreItsOwn() throws Exception {
        GrpcAgent agent = securedAgent();
        A2AServiceGrpc.A2AServiceBlockingStub alice = agent.stub(Map.of("authorization", "Bearer " + ALICE));
        A2AServiceGrpc.A2AServiceBlockingStub bob = agent.stub(Map.of("x-api-key", BOB_KEY));
        Task mine = alice.sendMessage(send(GrpcAgent.message("hi"))).getTask();
        assertThat(mine.getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
        assertThat(alice.getTask(GetTaskRequest.newBuilder().setId(mine.getId()).build()).getId()).isEqualTo(mine.getId());
        expect(() -> bob.getTask(GetTaskRequest.newBuilder().setId(mine.getId()).build()), Status.Code.NOT_FOUND,
                "TASK_NOT_FOUND");
        assertThat(bob.listTasks(ListTasksRequest.getDefaultInstance()).getTasksList()).extracting(Task::getId)
                .doesNotContain(mine.getId());
    }
}
