package legate.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
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
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (A2aClient a2a = A2aClient.connect(revisorUrl)) {
            String session = initialize(http, endpoint);
            HttpResponse<InputStream> call = http.send(post(endpoint, session, "{\"jsonrpc\":\"2.0\",\"id\":2,"
                    + "\"method\":\"tools/call\",\"params\":{\"name\":\"a2a_ask\",\"arguments\":{\"text\":\"Count these words.\"},"
                    + "\"_meta\":{\"progressToken\":\"p1\"}}}"), HttpResponse.BodyHandlers.ofInputStream());
            String taskId;
            try (BufferedReader sse = new BufferedReader(new InputStreamReader(call.body(), StandardCharsets.UTF_8))) {
                taskId = firstTaskId(sse);
            }

            StreamEnd end = a2a.subscribe(taskId, event -> true);

            assertThat(end.lastState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
            assertThat(a2a.getTask(taskId).getStatus().getState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
            assertThat(http.send(post(endpoint, null, INITIALIZE), HttpResponse.BodyHandlers.ofString()).statusCode())
                    .as("the endpoint still serves").isEqualTo(200);
        } finally {
            http.shutdownNow();
        }
    }

    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"hang-up\",\"version\":\"0\"}}}";

    private static String initialize(HttpClient http, McpEndpoint endpoint) throws Exception {
        HttpResponse<String> init = http.send(post(endpoint, null, INITIALIZE), HttpResponse.BodyHandlers.ofString());
        assertThat(init.statusCode()).isEqualTo(200);
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        http.send(post(endpoint, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"),
                HttpResponse.BodyHandlers.discarding());
        return session;
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

    private static HttpRequest post(McpEndpoint endpoint, String session, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(endpoint.url()))
                .timeout(Duration.ofSeconds(20))
                .header("Authorization", "Bearer " + TOKEN.value())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (session != null) {
            b.header("Mcp-Session-Id", session);
        }
        return b.build();
    }
}
