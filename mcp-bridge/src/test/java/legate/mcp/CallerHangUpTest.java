package legate.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.a2a.client.A2aClient;
import legate.a2a.client.StreamEnd;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.mcp.guard.BearerToken;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A caller that hangs up in the middle of a2a_ask, seen from the wire: it reads the first progress
 * notification of a tools/call, then closes the connection.
 */
class CallerHangUpTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private static final BearerToken TOKEN = BearerToken.mint(new SecureRandom());

    // Disconnecting is not cancelling: the task the caller left behind still completes, and the
    // endpoint goes on serving.
    @Test
    void aCallerThatHangsUpLeavesTheTaskRunningToCompletion() throws Exception {
        AgentServer revisor = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"), new RevisorExecutor(Duration.ofMillis(400)));
        // The stream the endpoint opened to the agent for the call must not outlive the test.
        int revisorPort = cleanup.start("Revisor", revisor, AgentServer::start, AgentServer::openStreams);
        URI revisorUrl = URI.create("http://127.0.0.1:" + revisorPort + "/");
        McpEndpoint endpoint = cleanup.register(McpEndpoint.create(McpConfig.loopback(0, TOKEN, Map.of("revisor", revisorUrl))
                .withTimers(Duration.ofMillis(100), Duration.ofSeconds(30))));
        endpoint.start();
        try (McpCaller caller = new McpCaller(endpoint, TOKEN); A2aClient a2a = A2aClient.connect(revisorUrl)) {
            HttpResponse<InputStream> call = caller.openCall(caller.initialize(), "a2a_ask", "{\"text\":\"Count these words.\"}");
            String taskId;
            try (BufferedReader sse = new BufferedReader(new InputStreamReader(call.body(), StandardCharsets.UTF_8))) {
                taskId = firstTaskId(sse);
            }

            StreamEnd end = a2a.subscribe(taskId, event -> true);

            assertThat(end.lastState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
            assertThat(a2a.getTask(taskId).getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
            assertThat(caller.http().send(caller.post(null, McpCaller.INITIALIZE), HttpResponse.BodyHandlers.ofString()).statusCode())
                    .as("the endpoint still serves").isEqualTo(200);
        }
    }

    /** Reads SSE lines up to the first progress notification and takes the task id from it. */
    private static String firstTaskId(BufferedReader sse) throws Exception {
        Pattern task = Pattern.compile("notifications/progress.*task ([0-9a-f-]{36})");
        for (String line = sse.readLine(); line != null; line = sse.readLine()) {
            Matcher m = task.matcher(line);
            if (m.find()) {
                return m.group(1);
            }
        }
        throw new AssertionError("the call ended before its first progress notification");
    }
}
