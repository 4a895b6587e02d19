package legate.a2a.server.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;
import legate.a2a.server.ServerConfig;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import legate.wire.sse.SseParser;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Part;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A stream is written by whichever thread publishes the task's events, not by a thread of its own:
 * what a client must still observe is every frame in order however fast they come, and a comment
 * on a quiet stream.
 */
class SseResponseTest {
    private static final int BURST = 3_000;
    private static final CountDownLatch quietTurnMayEnd = new CountDownLatch(1);
    // Closes the server after the class; after each test, every stream it opened must be over.
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static AgentServer server;
    private static URI rpc;
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** "burst": BURST artifact chunks back to back, then COMPLETED; "quiet": WORKING, then waits for the test. */
    static final class Executor implements AgentExecutor {
        @Override
        public void execute(RequestContext ctx, EventSink events) throws Exception {
            events.task(ctx.initialTask());
            if (ctx.text().equals("quiet")) {
                events.status(TaskState.TASK_STATE_WORKING, null);
                quietTurnMayEnd.await(10, TimeUnit.SECONDS);
            } else {
                for (int i = 0; i < BURST; i++) {
                    events.artifact(Artifact.newBuilder().setArtifactId("a")
                            .addParts(Part.newBuilder().setText(i + ",")).build(), i > 0, i == BURST - 1);
                }
            }
            events.status(TaskState.TASK_STATE_COMPLETED, null);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", 4096, Duration.ofSeconds(2), Duration.ofMillis(300)),
                port -> AgentCard.newBuilder().setName("burst").setDescription("d").setVersion("1")
                        .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + port + "/")
                                .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                        .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true))
                        .build(),
                new Executor());
        rpc = URI.create("http://127.0.0.1:" + cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams) + "/");
    }

    @AfterAll
    static void stop() throws Exception {
        quietTurnMayEnd.countDown();
    }

    private static String streamRequest(String text) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"method\":\"SendStreamingMessage\",\"params\":{\"message\":{\"messageId\":\"m-"
                + System.nanoTime() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"" + text + "\"}]}}}";
    }

    @Test
    void framesPublishedFasterThanTheyAreWrittenAllArriveInOrder() throws Exception {
        // DEFECT guarded: frames queued while a write is in flight leave together in the next write;
        // a lost, doubled or reordered frame there would corrupt the artifact a client rebuilds.
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(rpc)
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(streamRequest("burst"))).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/event-stream");
        StringBuilder artifact = new StringBuilder();
        List<String> kinds = new ArrayList<>();
        new SseParser(1 << 20).parse(r.body(), e -> {
            JsonNode frame = WireJson.mapper().readTree(e.data());
            // PROTOCOL (A2A §9.4.2): every frame is a whole JSON-RPC response carrying the request's id.
            assertThat(frame.get("id").asText()).isEqualTo("s-1");
            JsonNode result = frame.get("result");
            String kind = result.fieldNames().next();
            kinds.add(kind);
            if (kind.equals("artifactUpdate")) {
                artifact.append(result.get("artifactUpdate").get("artifact").get("parts").get(0).get("text").asText());
            }
            return true;
        });
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < BURST; i++) {
            expected.append(i).append(',');
        }
        assertThat(artifact.toString()).isEqualTo(expected.toString());
        assertThat(kinds).hasSize(BURST + 2);
        assertThat(kinds.get(0)).isEqualTo("task");
        assertThat(kinds).last().isEqualTo("statusUpdate");
    }

    @Test
    void aQuietStreamGetsAKeepAliveCommentAndThenItsEvents() throws Exception {
        byte[] body = streamRequest("quiet").getBytes(StandardCharsets.UTF_8);
        try (Socket socket = new Socket("127.0.0.1", rpc.getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\n"
                    + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            List<String> seen = new ArrayList<>();
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith(": ")) {
                    seen.add("comment");
                    // The turn is still WORKING; only now may it end.
                    quietTurnMayEnd.countDown();
                } else if (line.startsWith("data: ")) {
                    JsonNode result = WireJson.mapper().readTree(line.substring(6)).get("result");
                    String state = result.has("task") ? result.get("task").get("status").get("state").asText()
                            : result.get("statusUpdate").get("status").get("state").asText();
                    seen.add(state);
                    if (state.equals("TASK_STATE_COMPLETED")) {
                        break;
                    }
                }
            }
            // PROTOCOL (HTML §9.2.6): a comment line is ignored by SSE parsers; it exists only to keep the connection.
            assertThat(seen).containsSubsequence("TASK_STATE_WORKING", "comment", "TASK_STATE_COMPLETED");
        }
    }
}
