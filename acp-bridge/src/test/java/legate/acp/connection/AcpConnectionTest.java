package legate.acp.connection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import legate.acp.FakeAgents;
import legate.acp.protocol.AcpMethods;
import legate.acp.protocol.InitializeRequest;
import legate.acp.protocol.Implementation;
import legate.acp.protocol.NewSessionRequest;
import legate.acp.protocol.PromptRequest;
import legate.acp.protocol.SessionNotification;
import legate.acp.protocol.SessionUpdate;
import legate.testsupport.Cleanup;
import legate.wire.jsonrpc.JsonRpcError;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The JSON-RPC transport over a real child's pipes, against FakeAcpAgent. */
class AcpConnectionTest {
    // Each test: no agent process, nor anything an agent started, may outlive it.
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;
    private AdapterProcess process;
    private final List<String> unreadable = new CopyOnWriteArrayList<>();
    private final List<SessionUpdate> updates = new CopyOnWriteArrayList<>();

    private AcpConnection open(String... args) throws Exception {
        process = AdapterProcess.start(ProcessLauncher.system(), FakeAgents.command(args), dir);
        return AcpConnection.open(process, new ClientHandler() {
            @Override
            public void onNotification(String method, JsonNode params) {
                updates.add(SessionNotification.fromJson(params).update());
            }

            @Override
            public JsonNode onRequest(String method, JsonNode params) throws AcpException {
                throw new AcpException(JsonRpcError.METHOD_NOT_FOUND, "Method not found: " + method);
            }
        }, new AcpConnection.Observer() {
            @Override
            public void unreadableLine(String reason, String excerpt) {
                unreadable.add(reason + ": " + excerpt);
            }
        }, 1 << 20);
    }

    @AfterEach
    void stop() {
        if (process != null) {
            process.stop(Duration.ofMillis(300));
        }
    }

    private String session(AcpConnection c) throws Exception {
        c.request(AcpMethods.INITIALIZE, new InitializeRequest(new Implementation("test", null, "1")).toJson()).get(20, TimeUnit.SECONDS);
        return c.request(AcpMethods.SESSION_NEW, new NewSessionRequest(dir.toAbsolutePath()).toJson())
                .get(20, TimeUnit.SECONDS).path("sessionId").asText();
    }

    @Test
    void everyPendingRequestFailsAtOnceWhenTheAgentExits() throws Exception {
        // DEFECT (acp-core 0.14.0): a crashed agent left the prompt hanging until a 30 s timeout.
        AcpConnection c = open();
        String s = session(c);
        var prompt = c.request(AcpMethods.SESSION_PROMPT, new PromptRequest(s, "crash").toJson());
        assertThatThrownBy(() -> prompt.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(ConnectionClosed.class).hasMessageContaining("exited with status 3");
        assertThat(c.closed().get(10, TimeUnit.SECONDS).exitStatus()).isEqualTo(3);
        assertThatThrownBy(() -> c.request(AcpMethods.SESSION_PROMPT, new PromptRequest(s, "again").toJson())
                .get(1, TimeUnit.SECONDS)).as("a request after the end fails at once").cause().isInstanceOf(ConnectionClosed.class);
    }

    @Test
    void updatesArriveInOrderAndLinesThatAreNotJsonAreSkipped() throws Exception {
        // DEFECT (acp-core 0.14.0): one non-JSON line stopped the reader for good, and its client reordered
        // streamed updates.
        AcpConnection c = open("--garbage-first");
        String s = session(c);
        StringBuilder digits = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            digits.append((char) ('0' + i % 10));
        }
        JsonNode answer = c.request(AcpMethods.SESSION_PROMPT, new PromptRequest(s, "echo " + digits).toJson())
                .get(20, TimeUnit.SECONDS);
        assertThat(answer.path("stopReason").asText()).isEqualTo("end_turn");
        StringBuilder seen = new StringBuilder();
        for (SessionUpdate u : updates) {
            if (u instanceof SessionUpdate.AgentMessageChunk chunk) {
                seen.append(chunk.text());
            }
        }
        assertThat(seen.toString()).isEqualTo(digits.toString());
        assertThat(unreadable).hasSize(2).allSatisfy(l -> assertThat(l).startsWith("not JSON"));
    }

    @Test
    void anErrorAnswerFailsItsRequestWithTheAgentsCodeAndMessage() throws Exception {
        AcpConnection c = open();
        String s = session(c);
        assertThatThrownBy(() -> c.request(AcpMethods.SESSION_PROMPT, new PromptRequest(s, "auth").toJson())
                .get(20, TimeUnit.SECONDS)).cause().isInstanceOf(AcpException.class)
                .satisfies(e -> assertThat(((AcpException) e).code()).isEqualTo(-32000))
                .hasMessageContaining("Authentication required");
    }
}
