package legate.a2a.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerSecurity;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.TaskState;

/**
 * A loopback A2A server with the given security in front of an executor that counts its turns,
 * and a JDK HttpClient speaking raw JSON-RPC to it: what the security tests observe as a caller.
 * The executor's text decides the turn: "ask" parks the task in INPUT_REQUIRED, "hold" stays
 * WORKING until {@link #release()}, "linger" completes at once and returns only at {@link #release()},
 * anything else completes at once.
 */
final class SecuredAgent {
    final AtomicInteger turns = new AtomicInteger();
    final CountDownLatch held = new CountDownLatch(1);
    final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    SecuredAgent(Cleanup cleanup, ServerSecurity security) throws Exception {
        AgentExecutor executor = new AgentExecutor() {
            @Override
            public void execute(RequestContext ctx, EventSink events) throws Exception {
                turns.incrementAndGet();
                events.task(ctx.initialTask());
                String text = ctx.message().getPartsCount() == 0 ? "" : ctx.message().getParts(0).getText();
                if (text.equals("ask") && ctx.storedTask() == null) {
                    events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText("which one?"));
                    return;
                }
                events.status(TaskState.TASK_STATE_WORKING, events.agentText("working"));
                if (text.equals("hold")) {
                    held.await(20, TimeUnit.SECONDS);
                }
                events.status(TaskState.TASK_STATE_COMPLETED, null);
                if (text.equals("linger")) {
                    held.await(20, TimeUnit.SECONDS);
                }
            }
        };
        AgentServer server = AgentServer.create(ServerConfig.loopback(0).withSecurity(security),
                port -> AgentCard.newBuilder().setName("secured").setDescription("d").setVersion("1")
                        .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + port + "/")
                                .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                        .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true))
                        .build(),
                executor);
        int port = cleanup.start("the secured agent", server, AgentServer::start, AgentServer::openStreams);
        this.base = URI.create("http://127.0.0.1:" + port + "/");
    }

    void release() {
        held.countDown();
    }

    /** One JSON-RPC call with these extra headers; the whole response. */
    HttpResponse<String> post(String method, String paramsJson, Map<String, String> headers)
            throws IOException, InterruptedException {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + method + "\",\"params\":" + paramsJson + "}";
        HttpRequest.Builder b = HttpRequest.newBuilder(base).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A call as the holder of {@code token} (a bearer token); the parsed JSON-RPC response. */
    JsonNode call(String token, String method, String paramsJson) throws IOException, InterruptedException {
        return WireJson.mapper().readTree(post(method, paramsJson, Map.of("Authorization", "Bearer " + token)).body());
    }

    HttpResponse<String> card() throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(base.resolve("/.well-known/agent-card.json")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String message(String text, String extra) {
        return "{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\""
                + text + "\"}]" + extra + "}}";
    }
}
