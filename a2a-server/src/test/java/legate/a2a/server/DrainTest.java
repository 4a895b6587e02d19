package legate.a2a.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import legate.testsupport.Cleanup;
import legate.testsupport.OwnThreads;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A server stopped as a SIGTERM stops it ({@link AgentServer#drain}): it refuses new work with
 * 503 while it still serves reads, lets a running turn finish and its
 * stream end with the turn's last event, and ends a stream whose turn outlives the grace cleanly
 * (an end the client reads, not a reset) so the client can resume elsewhere.
 */
class DrainTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    final CountDownLatch turnMayEnd = new CountDownLatch(1);
    final CountDownLatch turnStarted = new CountDownLatch(1);
    AgentServer server;
    int port;

    @BeforeEach
    void start() throws Exception {
        server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", 1 << 20, Duration.ofSeconds(2)),
                p -> AgentCard.newBuilder().setName("slow").setDescription("d").setVersion("1")
                        .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + p + "/")
                                .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                        .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true)).build(),
                (ctx, events) -> {
                    events.task(ctx.initialTask());
                    events.status(TaskState.TASK_STATE_WORKING, events.agentText("working"));
                    turnStarted.countDown();
                    turnMayEnd.await(30, TimeUnit.SECONDS);
                    events.status(TaskState.TASK_STATE_COMPLETED, events.agentText("done"));
                });
        port = cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
    }

    private static String request(String method, String params) {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}";
        return "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\n"
                + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
    }

    private static String message() {
        return "{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}}";
    }

    /** A stream on its own connection; its lines, read until the response ends (or the socket breaks). */
    private CompletableFuture<List<String>> stream(Socket s) throws IOException {
        s.getOutputStream().write(request("SendStreamingMessage", message()).getBytes(StandardCharsets.UTF_8));
        BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
        return CompletableFuture.supplyAsync(() -> {
            List<String> lines = new ArrayList<>();
            try {
                String line;
                while ((line = in.readLine()) != null) {
                    lines.add(line);
                    if (line.equals("0")) {
                        // The last chunk of a chunked response: the stream ended cleanly.
                        lines.add("<end>");
                        break;
                    }
                }
            } catch (IOException e) {
                lines.add("<broken: " + e.getMessage() + ">");
            }
            return lines;
        }, OwnThreads.EACH);
    }

    private Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        s.setSoTimeout(20_000);
        return cleanup.register(s);
    }

    @Test
    void aRunningTurnFinishesItsStreamEndsWithItAndNewWorkIsRefused() throws Exception {
        CompletableFuture<List<String>> frames = stream(connect());
        assertThat(turnStarted.await(10, TimeUnit.SECONDS)).isTrue();
        Socket idle = connect();

        // The drain's first step taken here, so the requests below certainly come after it.
        server.handler().drain();
        CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(() -> {
            try {
                return server.drain(Duration.ofSeconds(20));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, OwnThreads.EACH);
        // New work is refused with 503, on a connection made before the drain and on a new one alike.
        for (Socket s : List.of(idle, connect())) {
            OutputStream out = s.getOutputStream();
            out.write(request("SendMessage", message()).getBytes(StandardCharsets.UTF_8));
            String status = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
            assertThat(status).isEqualTo("HTTP/1.1 503 Service Unavailable");
        }
        // Reads are still served.
        Socket reader = connect();
        reader.getOutputStream().write(request("ListTasks", "{}").getBytes(StandardCharsets.UTF_8));
        assertThat(new BufferedReader(new InputStreamReader(reader.getInputStream(), StandardCharsets.UTF_8)).readLine())
                .isEqualTo("HTTP/1.1 200 OK");
        assertThat(drained).isNotDone();

        turnMayEnd.countDown();
        assertThat(drained.get(20, TimeUnit.SECONDS)).as("every turn ended within the grace").isTrue();
        List<String> lines = frames.get(20, TimeUnit.SECONDS);
        assertThat(String.join("\n", lines)).contains("TASK_STATE_COMPLETED").endsWith("<end>");
    }

    @Test
    void aStreamWhoseTurnOutlivesTheGraceEndsCleanlyWithTheFramesItHad() throws Exception {
        CompletableFuture<List<String>> frames = stream(connect());
        assertThat(turnStarted.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(server.drain(Duration.ofMillis(200))).as("the turn was still running").isFalse();
        List<String> lines = frames.get(20, TimeUnit.SECONDS);
        String all = String.join("\n", lines);
        assertThat(all).contains("TASK_STATE_WORKING").doesNotContain("TASK_STATE_COMPLETED").endsWith("<end>");
        turnMayEnd.countDown();
    }
}
