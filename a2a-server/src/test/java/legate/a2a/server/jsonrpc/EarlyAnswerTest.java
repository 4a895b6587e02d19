package legate.a2a.server.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.testsupport.Cleanup;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An answer the server gives before it has read the whole request (413 for a body over the limit,
 * 400 on JSON-RPC or 415 on REST for a wrong Content-Type) must reach a client that is still
 * sending. RFC 9112 §9.6: a server
 * that closes at once, with the client's bytes unread, makes its TCP stack send a reset, which can
 * destroy the answer in the client's receive buffer before the client reads it. DEFECT: 7 of 43
 * 5 MB requests got "connection reset" (EPIPE) instead of the 413.
 */
class EarlyAnswerTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    static final int LIMIT = 64 * 1024;
    static final int BODY = 5 * 1024 * 1024;
    static final int REQUESTS = 100;
    static int port;

    @BeforeAll
    static void start() throws Exception {
        AgentServer server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", LIMIT, Duration.ofSeconds(2)),
                p -> AgentCard.newBuilder().setName("echo").setDescription("d").setVersion("1")
                        .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + p + "/")
                                .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                        .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true)).build(),
                (ctx, events) -> {
                    events.task(ctx.initialTask());
                    events.status(TaskState.TASK_STATE_COMPLETED, null);
                });
        port = cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
    }

    /**
     * One fresh connection, written as a simple client writes it: the head and the whole body, then
     * the answer is read. A server that closes with the body unread resets the connection under the
     * writer (EPIPE), and the answer it sent is lost with it.
     */
    private static String statusLineAfterSending(String path, String contentType) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: " + contentType + "\r\nA2A-Version: 1.0\r\n"
                    + "Content-Length: " + BODY + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = new byte[64 * 1024];
            for (int sent = 0; sent < BODY; sent += chunk.length) {
                out.write(chunk);
            }
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            int c;
            while ((c = in.read()) != -1 && c != '\n') {
                line.append((char) c);
            }
            return line.toString().strip();
        } catch (IOException e) {
            return "failed: " + e.getMessage();
        }
    }

    // On JSON-RPC's path and on a REST one (A2A §11): both bindings answer early through one edge.
    @ParameterizedTest
    @ValueSource(strings = {"/", "/message:send"})
    void everyOversizedRequestReadsIts413(String path) {
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            String status = statusLineAfterSending(path, "application/json");
            if (!status.startsWith("HTTP/1.1 413")) {
                failures.add(status);
            }
        }
        assertThat(failures).as("of " + REQUESTS + " requests with a 5 MB body").isEmpty();
    }

    // PROTOCOL (A2A 1.0.0 §5.4): ContentTypeNotSupported is HTTP 400 with -32005 on JSON-RPC, 415 on REST.
    @ParameterizedTest
    @CsvSource({"/, 400", "/message:send, 415"})
    void aWrongContentTypeAnsweredBeforeTheBodyIsReadReachesTheClientToo(String path, int expected) {
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            String status = statusLineAfterSending(path, "text/plain");
            if (!status.startsWith("HTTP/1.1 " + expected)) {
                failures.add(status);
            }
        }
        assertThat(failures).isEmpty();
    }
}
