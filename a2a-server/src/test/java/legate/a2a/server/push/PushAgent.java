package legate.a2a.server.push;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.InstanceGroup;
import legate.a2a.server.task.TaskStore;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Part;
import lf.a2a.v1.TaskState;

/**
 * A loopback agent that sends push notifications as {@link PushSettings} say, in front of an
 * executor whose message text is its script, and raw JSON-RPC to it. "steps N": the Task, N WORKING
 * updates ("step 1" ...), an artifact, COMPLETED, at once. "gate N": the same, each step waiting for
 * {@link #release}. "ask": INPUT_REQUIRED.
 */
final class PushAgent {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final AgentServer server;
    final int port;
    private final Semaphore gate = new Semaphore(0);

    PushAgent(Cleanup cleanup, PushSettings push) throws Exception {
        this(cleanup, push, new InMemoryTaskStore());
    }

    PushAgent(Cleanup cleanup, PushSettings push, TaskStore store) throws Exception {
        this(cleanup, push, store, InstanceGroup.ALONE);
    }

    /** One instance of {@code group} on {@code store}. */
    PushAgent(Cleanup cleanup, PushSettings push, TaskStore store, InstanceGroup group) throws Exception {
        AgentExecutor executor = new AgentExecutor() {
            @Override
            public void execute(RequestContext ctx, EventSink events) throws Exception {
                events.task(ctx.initialTask());
                String[] script = ctx.text().split(" ");
                if (script[0].equals("ask")) {
                    events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText("which one?"));
                    return;
                }
                int steps = script.length > 1 ? Integer.parseInt(script[1]) : 1;
                boolean gated = script[0].equals("gate");
                for (int i = 1; i <= steps; i++) {
                    if (gated && !gate.tryAcquire(20, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the test never released step " + i);
                    }
                    events.status(TaskState.TASK_STATE_WORKING, events.agentText("step " + i));
                }
                events.artifact(Artifact.newBuilder().setArtifactId("a1").setName("result")
                        .addParts(Part.newBuilder().setText("the result")).build(), false, true);
                events.status(TaskState.TASK_STATE_COMPLETED, events.agentText("done"));
            }
        };
        server = AgentServer.create(ServerConfig.loopback(0).withPush(push),
                p -> LegateCards.jsonRpc("pusher", "d", "http://127.0.0.1:" + p + "/").build(), executor, store,
                Clock.systemUTC(), group);
        port = cleanup.start("the pushing agent", server, AgentServer::start, AgentServer::openStreams);
    }

    /** Lets {@code n} gated steps run. */
    void release(int n) {
        gate.release(n);
    }

    JsonNode call(String method, String params) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method
                        + "\",\"params\":" + params + "}"))
                .timeout(Duration.ofSeconds(10)).build();
        return WireJson.mapper().readTree(HTTP.send(req, HttpResponse.BodyHandlers.ofString()).body());
    }

    JsonNode get(String path) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build();
        return WireJson.mapper().readTree(HTTP.send(req, HttpResponse.BodyHandlers.ofString()).body());
    }

    /** SendMessage with {@code text}, and the inline push configuration {@code pushConfig} (JSON) unless null. */
    JsonNode send(String text, String pushConfig, boolean returnImmediately) throws Exception {
        String configuration = "{\"returnImmediately\":" + returnImmediately
                + (pushConfig == null ? "" : ",\"taskPushNotificationConfig\":" + pushConfig) + "}";
        return call("SendMessage", "{\"message\":{\"messageId\":\"m-" + System.nanoTime()
                + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"" + text + "\"}]},\"configuration\":"
                + configuration + "}");
    }

    /** The task id of a SendMessage answer. */
    static String taskId(JsonNode answer) {
        return answer.get("result").get("task").get("id").asText();
    }
}
