package legate.a2a.server.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
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
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The JSON-RPC binding as a client sees it on a real loopback socket: status codes, headers, error
 * bodies and SSE frames (A2A §9, and the JS SDK 1.2.0 answers in docs/peers.md §2). One server
 * serves every test, so each bad request also proves the next caller is still served.
 */
class JsonRpcBindingTest {
    private static final int BODY_LIMIT = 4096;
    private static final CountDownLatch slowTurnMayFinish = new CountDownLatch(1);
    // Closes the server after the class; after each test, every stream it opened must be over.
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static AgentServer server;
    private static URI rpc;
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** Completes at once, or (for the text "slow") after the test releases it. */
    static final class EchoExecutor implements AgentExecutor {
        @Override
        public void execute(RequestContext ctx, EventSink events) throws Exception {
            events.task(ctx.initialTask());
            events.status(TaskState.TASK_STATE_WORKING, events.agentText("working"));
            if (ctx.message().getParts(0).getText().equals("slow")) {
                slowTurnMayFinish.await(10, TimeUnit.SECONDS);
            }
            events.status(TaskState.TASK_STATE_COMPLETED, null);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", BODY_LIMIT, Duration.ofSeconds(2)),
                port -> AgentCard.newBuilder().setName("echo").setDescription("d").setVersion("1")
                        .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + port + "/")
                                .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                        .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true).setPushNotifications(false))
                        .build(),
                new EchoExecutor());
        int port = cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
        rpc = URI.create("http://127.0.0.1:" + port + "/");
    }

    @AfterAll
    static void stop() throws Exception {
        slowTurnMayFinish.countDown();
    }

    record Reply(int status, String contentType, JsonNode body, String raw) {
        JsonNode error() {
            return body.get("error");
        }

        int code() {
            return error().get("code").asInt();
        }

        String reason() {
            JsonNode data = error().get("data");
            return data == null ? null : data.get(0).get("reason").asText();
        }
    }

    private static Reply post(String body, String contentType, String version) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(rpc).POST(HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (version != null) {
            b.header("A2A-Version", version);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        String type = r.headers().firstValue("Content-Type").orElse("");
        JsonNode json = type.startsWith("application/json")
                ? WireJson.mapper().readTree(r.body()) : null;
        return new Reply(r.statusCode(), type, json, r.body());
    }

    private static Reply call(String method, String params) throws Exception {
        return post("{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"" + method + "\",\"params\":" + params + "}",
                "application/json", "1.0");
    }

    private static String message(String text) {
        return "{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\""
                + text + "\"}]}}";
    }

    // ------------------------------------------------------------------ the happy path

    @Test
    void sendMessageAnswersTheWrappedTaskWithTheRequestsId() throws Exception {
        Reply r = call("SendMessage", message("hi"));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().get("id").asText()).isEqualTo("r1");
        // PROTOCOL (A2A §9.4.1): SendMessage's result is wrapped ({"task":...}); GetTask's is bare.
        JsonNode task = r.body().get("result").get("task");
        assertThat(task.get("status").get("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        Reply get = call("GetTask", "{\"id\":\"" + task.get("id").asText() + "\"}");
        assertThat(get.body().get("result").get("id").asText()).isEqualTo(task.get("id").asText());
    }

    @Test
    void aPatchVersionOrTheQueryParameterIsAccepted() throws Exception {
        assertThat(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"x\"}}",
                "application/json", "1.0.3").code()).isEqualTo(-32001);
        HttpRequest viaQuery = HttpRequest.newBuilder(rpc.resolve("/?A2A-Version=1.0"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"x\"}}"))
                .build();
        assertThat(http.send(viaQuery, HttpResponse.BodyHandlers.ofString()).body()).contains("-32001");
    }

    @Test
    void streamingAnswersServerSentEventsEachAFullJsonRpcResponse() throws Exception {
        HttpRequest req = HttpRequest.newBuilder(rpc).header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"SendStreamingMessage\",\"params\":"
                        + message("hi") + "}")).build();
        HttpResponse<java.io.InputStream> r = http.send(req, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/event-stream");
        assertThat(r.headers().firstValue("Cache-Control")).hasValue("no-cache");
        List<JsonNode> frames = new ArrayList<>();
        new SseParser(1 << 20).parse(r.body(), e -> frames.add(WireJson.mapper().readTree(e.data())));
        assertThat(frames).allSatisfy(f -> assertThat(f.get("id").asInt()).isEqualTo(42));
        assertThat(frames).extracting(f -> f.get("result").fieldNames().next())
                .containsExactly("task", "statusUpdate", "statusUpdate");
    }

    @Test
    void anErrorBeforeTheFirstEventIsAPlainJsonBodyNotAStream() throws Exception {
        // PEER (@a2a-js/sdk 1.2.0): errors before the stream starts come back as application/json.
        Reply r = call("SubscribeToTask", "{\"id\":\"no-such-task\"}");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.contentType()).startsWith("application/json");
        assertThat(r.code()).isEqualTo(-32001);
        assertThat(r.reason()).isEqualTo("TASK_NOT_FOUND");
    }

    @Test
    void theCardIsCacheableAndRevalidates() throws Exception {
        URI card = rpc.resolve("/.well-known/agent-card.json");
        HttpResponse<String> first = http.send(HttpRequest.newBuilder(card).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        assertThat(first.headers().firstValue("Cache-Control")).hasValue("public, max-age=3600");
        assertThat(first.body()).contains("\"protocolBinding\":\"JSONRPC\"").contains("\"protocolVersion\":\"1.0\"");
        String etag = first.headers().firstValue("ETag").orElseThrow();
        String lastModified = first.headers().firstValue("Last-Modified").orElseThrow();
        assertThat(http.send(HttpRequest.newBuilder(card).header("If-None-Match", etag).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(304);
        assertThat(http.send(HttpRequest.newBuilder(card).header("If-Modified-Since", lastModified).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(304);
        assertThat(http.send(HttpRequest.newBuilder(card).header("If-None-Match", "W/\"other\"").build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    }

    // ------------------------------------------------------------------ bad input

    @Test
    void aMissingVersionHeaderIsVersionNotSupportedWithHttp500AsTheJsSdkAnswers() throws Exception {
        Reply r = post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"GetTask\",\"params\":{\"id\":\"x\"}}", "application/json", null);
        assertThat(r.status()).isEqualTo(500);
        assertThat(r.code()).isEqualTo(-32009);
        assertThat(r.reason()).isEqualTo("VERSION_NOT_SUPPORTED");
        assertThat(r.body().get("id").asInt()).isEqualTo(7);
        assertThat(r.error().get("data").get(0).get("domain").asText()).isEqualTo("a2a-protocol.org");
        assertThat(post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"GetTask\",\"params\":{\"id\":\"x\"}}",
                "application/json", "0.3").code()).isEqualTo(-32009);
    }

    @Test
    void malformedJsonIsAParseErrorWithHttp400AndNoData() throws Exception {
        Reply r = post("{\"jsonrpc\":\"2.0\",", "application/json", "1.0");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo(-32700);
        assertThat(r.error().has("data")).isFalse();
        assertThat(r.body().get("id").isNull()).isTrue();
    }

    @Test
    void deeplyNestedJsonIsAParseErrorAndCostsNothingElse() throws Exception {
        String deep = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":" + "[".repeat(1500) + "]".repeat(1500) + "}";
        Reply r = post(deep, "application/json", "1.0");
        assertThat(r.code()).isEqualTo(-32700);
        assertThat(call("GetTask", "{\"id\":\"x\"}").code()).isEqualTo(-32001);
    }

    @Test
    void aWrongContentTypeIsRefused() throws Exception {
        Reply r = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"x\"}}", "text/plain", "1.0");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo(-32005);
        assertThat(r.reason()).isEqualTo("CONTENT_TYPE_NOT_SUPPORTED");
    }

    @Test
    void aBodyOverTheLimitIsRefusedWith413() throws Exception {
        Reply r = call("SendMessage", message("x".repeat(BODY_LIMIT)));
        assertThat(r.status()).isEqualTo(413);
        assertThat(r.code()).isEqualTo(-32600);
        assertThat(r.error().get("message").asText()).contains(String.valueOf(BODY_LIMIT));
    }

    @Test
    void wrongFieldTypesAreInvalidParams() throws Exception {
        Reply r = call("SendMessage", "{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":\"not a list\"}}");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.code()).isEqualTo(-32602);
        assertThat(r.reason()).isEqualTo("INVALID_PARAMS");
        assertThat(call("GetTask", "[1,2]").code()).isEqualTo(-32602);
        assertThat(call("GetTask", "{\"id\":{\"nested\":true}}").code()).isEqualTo(-32602);
    }

    @Test
    void anUnknownMethodAndTheOldSlashNamesAreMethodNotFound() throws Exception {
        assertThat(call("DoSomething", "{}").code()).isEqualTo(-32601);
        // PROTOCOL (A2A §5.3): v1.0 names are PascalCase; "message/send" was v0.3.
        Reply old = call("message/send", message("hi"));
        assertThat(old.code()).isEqualTo(-32601);
        assertThat(old.error().has("data")).isFalse();
    }

    @Test
    void aRequestWithoutIdIsAnInvalidRequest() throws Exception {
        Reply r = post("{\"jsonrpc\":\"2.0\",\"method\":\"GetTask\",\"params\":{\"id\":\"x\"}}", "application/json", "1.0");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.code()).isEqualTo(-32600);
    }

    @Test
    void anInvalidEnvelopeIsAnInvalidRequest() throws Exception {
        assertThat(post("{\"id\":1,\"method\":\"GetTask\"}", "application/json", "1.0").code()).isEqualTo(-32600);
        assertThat(post("[]", "application/json", "1.0").code()).isEqualTo(-32600);
    }

    @Test
    void pushNotificationMethodsReachTheHandlerWhichOwnsTheTaskCheck() throws Exception {
        // The server declares pushNotifications (README "Push notifications"); an unknown task is -32001.
        for (String m : List.of("CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig",
                "ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig")) {
            Reply r = call(m, "{\"taskId\":\"t\",\"id\":\"c\",\"url\":\"https://example.com/\"}");
            assertThat(r.code()).as(m).isEqualTo(-32001);
            assertThat(r.reason()).as(m).isEqualTo("TASK_NOT_FOUND");
        }
        assertThat(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetExtendedAgentCard\"}", "application/json", "1.0")
                .code()).isEqualTo(-32004);
    }

    @Test
    void noErrorMessageCarriesAStackTrace() throws Exception {
        for (Reply r : List.of(post("{", "application/json", "1.0"),
                call("SendMessage", "{\"message\":{\"parts\":[{\"text\":1}]}}"),
                call("SendMessage", "{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"taskId\":\"missing\"}}"))) {
            assertThat(r.raw()).doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("at legate.");
        }
    }

    @Test
    void getOnTheRpcUrlSaysWhereToPost() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(rpc).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(405);
        assertThat(r.body()).contains("POST");
    }

    @Test
    void aClientThatDisconnectsMidStreamCostsOnlyItsOwnStream() throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendStreamingMessage\",\"params\":" + message("slow") + "}";
        String taskId;
        try (Socket socket = new Socket("127.0.0.1", rpc.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nA2A-Version: 1.0\r\n"
                    + "Content-Length: " + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body)
                    .getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            String line;
            String firstFrame = null;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("data: ")) {
                    firstFrame = line.substring(6);
                    break;
                }
            }
            assertThat(firstFrame).isNotNull();
            taskId = WireJson.mapper().readTree(firstFrame).get("result").get("task").get("id").asText();
        }
        // the socket is gone; the task goes on and finishes, and others are served meanwhile
        assertThat(call("GetTask", "{\"id\":\"" + taskId + "\"}").body().get("result").get("status").get("state").asText())
                .isIn("TASK_STATE_SUBMITTED", "TASK_STATE_WORKING");
        HttpRequest subscribe = HttpRequest.newBuilder(rpc).header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"SubscribeToTask\",\"params\":{\"id\":\""
                        + taskId + "\"}}")).build();
        HttpResponse<java.io.InputStream> stream = http.send(subscribe, HttpResponse.BodyHandlers.ofInputStream());
        slowTurnMayFinish.countDown();
        List<String> states = new ArrayList<>();
        new SseParser(1 << 20).parse(stream.body(), e -> {
            JsonNode result = WireJson.mapper().readTree(e.data()).get("result");
            JsonNode status = result.has("task") ? result.get("task").get("status") : result.get("statusUpdate").get("status");
            states.add(status.get("state").asText());
            return true;
        });
        assertThat(states).last().isEqualTo("TASK_STATE_COMPLETED");
    }
}
