package legate.a2a.server.v03;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import legate.a2a.server.ServerConfig;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import legate.wire.sse.SseEvent;
import legate.wire.sse.SseParser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The v0.3 JSON-RPC endpoint as a v0.3 client sees it on a real loopback socket, beside the v1.0
 * one on the same server: each v0.3 method (A2A v0.3 §7), its shapes, its errors (§8), and the
 * two endpoints refusing each other's method names. One server serves every test, so each bad
 * request also shows the next caller is still served.
 */
class V03EndpointTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static URI base;
    private static URI v03;

    @BeforeAll
    static void start() throws Exception {
        int port = V03TestAgent.serve(cleanup, ServerConfig.loopback(0));
        base = URI.create("http://127.0.0.1:" + port + "/");
        v03 = base.resolve("v0.3/");
    }

    record Reply(int status, String contentType, JsonNode body, List<SseEvent> frames) {
        JsonNode result() {
            return body.get("result");
        }

        JsonNode error() {
            return body.get("error");
        }

        List<JsonNode> results() throws Exception {
            List<JsonNode> out = new ArrayList<>();
            for (SseEvent e : frames) {
                out.add(WireJson.mapper().readTree(e.data()).get("result"));
            }
            return out;
        }
    }

    private static Reply post(URI to, String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(to).timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        HttpResponse<InputStream> r = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        String type = r.headers().firstValue("Content-Type").orElse("");
        List<SseEvent> frames = new ArrayList<>();
        JsonNode json = null;
        try (var in = r.body()) {
            if (type.startsWith("text/event-stream")) {
                new SseParser(1 << 20).parse(in, e -> frames.add(e));
            } else {
                byte[] bytes = in.readAllBytes();
                json = bytes.length == 0 ? null : WireJson.mapper().readTree(bytes);
            }
        }
        return new Reply(r.statusCode(), type, json, frames);
    }

    /** A v0.3 call as a v0.3 client makes it: application/json, and no A2A-Version header at all. */
    private static Reply call(String method, String params) throws Exception {
        return call(method, params, Map.of());
    }

    private static Reply call(String method, String params, Map<String, String> headers) throws Exception {
        Map<String, String> h = new HashMap<>(headers);
        h.put("Content-Type", "application/json");
        return post(v03, "{\"jsonrpc\":\"2.0\",\"id\":\"q1\",\"method\":\"" + method + "\",\"params\":" + params + "}", h);
    }

    private static String send(String text) {
        return send(text, "", "");
    }

    private static String send(String text, String taskId, String configuration) {
        return "{\"message\":{\"kind\":\"message\",\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"user\","
                + (taskId.isEmpty() ? "" : "\"taskId\":\"" + taskId + "\",")
                + "\"parts\":[{\"kind\":\"text\",\"text\":\"" + text + "\"}]}"
                + (configuration.isEmpty() ? "" : ",\"configuration\":" + configuration) + "}";
    }

    // ------------------------------------------------------------------ the methods

    @Test
    void messageSendWithoutAVersionHeaderAnswersTheFinishedTaskInV03Shapes() throws Exception {
        Reply r = call("message/send", send("one two three"));
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.body().get("id").asText()).isEqualTo("q1");
        JsonNode task = r.result();
        // PROTOCOL (A2A v0.3 §7.1): the result is the Task itself, kind "task", states lower-case.
        assertThat(task.get("kind").asText()).isEqualTo("task");
        assertThat(task.at("/status/state").asText()).isEqualTo("completed");
        assertThat(task.at("/artifacts/0/parts/0")).isEqualTo(WireJson.mapper().readTree("{\"kind\":\"text\",\"text\":\"Words: 3\"}"));
        assertThat(task.at("/artifacts/0/parts/1/kind").asText()).isEqualTo("data");
        assertThat(task.at("/artifacts/0/parts/1/data/words").asInt()).isEqualTo(3);
        assertThat(task.at("/history/0/kind").asText()).isEqualTo("message");
        assertThat(task.at("/history/0/role").asText()).isEqualTo("user");
        assertThat(r.body().toString()).doesNotContain("TASK_STATE_").doesNotContain("ROLE_");
    }

    @Test
    void anAgentMessageIsAnsweredAsKindMessage() throws Exception {
        JsonNode m = call("message/send", send("message")).result();
        assertThat(m.get("kind").asText()).isEqualTo("message");
        assertThat(m.get("role").asText()).isEqualTo("agent");
        assertThat(m.at("/parts/0/text").asText()).isEqualTo("no task for that");
    }

    @Test
    void blockingFalseReturnsBeforeTheTurnEndsAndCancelEndsItCanceled() throws Exception {
        JsonNode task = call("message/send", send("slow", "", "{\"blocking\":false}")).result();
        assertThat(task.at("/status/state").asText()).isIn("submitted", "working");
        JsonNode canceled = call("tasks/cancel", "{\"id\":\"" + task.get("id").asText() + "\"}").result();
        assertThat(canceled.get("kind").asText()).isEqualTo("task");
        assertThat(canceled.at("/status/state").asText()).isEqualTo("canceled");
        // PROTOCOL (A2A v0.3 §8.2): a task in a terminal state is not cancelable, -32002.
        Reply again = call("tasks/cancel", "{\"id\":\"" + task.get("id").asText() + "\"}");
        assertThat(again.error().get("code").asInt()).isEqualTo(-32002);
    }

    @Test
    void inputRequiredIsAnsweredAndTheReplyIntoTheTaskCompletesIt() throws Exception {
        JsonNode asked = call("message/send", send("")).result();
        assertThat(asked.at("/status/state").asText()).isEqualTo("input-required");
        assertThat(asked.at("/status/message/parts/0/text").asText()).isEqualTo(V03TestAgent.QUESTION);
        JsonNode done = call("message/send", send("four words right here", asked.get("id").asText(), "")).result();
        assertThat(done.get("id").asText()).isEqualTo(asked.get("id").asText());
        assertThat(done.at("/status/state").asText()).isEqualTo("completed");
    }

    @Test
    void messageStreamSendsKindedResultsWithIdsAndFinalOnTheLastStatusUpdate() throws Exception {
        Reply r = call("message/stream", send("a b"));
        assertThat(r.contentType()).startsWith("text/event-stream");
        List<JsonNode> results = r.results();
        assertThat(results).extracting(j -> j.get("kind").asText())
                .containsExactly("task", "status-update", "artifact-update", "status-update");
        assertThat(results).extracting(j -> j.path("final").asText("-")).containsExactly("-", "false", "-", "true");
        assertThat(results.get(3).at("/status/state").asText()).isEqualTo("completed");
        // The resumable-streams extension: every task frame carries the event's sequence number.
        assertThat(r.frames()).extracting(SseEvent::id).containsExactly("1", "2", "3", "4");
        assertThat(r.frames()).allSatisfy(f -> assertThat(WireJson.mapper().readTree(f.data()).get("id").asText()).isEqualTo("q1"));
    }

    @Test
    void aStreamAtInputRequiredEndsWithAFinalUpdate() throws Exception {
        List<JsonNode> results = call("message/stream", send("")).results();
        assertThat(results.getLast().at("/status/state").asText()).isEqualTo("input-required");
        assertThat(results.getLast().get("final").asBoolean()).isTrue();
    }

    @Test
    void tasksGetAnswersTheTaskAndHistoryLengthZeroLeavesHistoryOut() throws Exception {
        String id = call("message/send", send("x")).result().get("id").asText();
        JsonNode got = call("tasks/get", "{\"id\":\"" + id + "\"}").result();
        assertThat(got.get("kind").asText()).isEqualTo("task");
        assertThat(got.get("history")).isNotNull();
        assertThat(call("tasks/get", "{\"id\":\"" + id + "\",\"historyLength\":0}").result().has("history")).isFalse();
    }

    @Test
    void tasksResubscribeWithLastEventIdSendsTheFramesAfterIt() throws Exception {
        Reply first = call("message/stream", send("c d e"));
        String id = first.results().getFirst().get("id").asText();
        Reply resumed = call("tasks/resubscribe", "{\"id\":\"" + id + "\"}", Map.of("Last-Event-ID", "2"));
        assertThat(resumed.frames()).extracting(SseEvent::id).containsExactly("3", "4");
        assertThat(resumed.results()).extracting(j -> j.get("kind").asText()).containsExactly("artifact-update", "status-update");
        // PROTOCOL (A2A §3.1.6, as v1.0 has it): without an id, a finished task cannot be subscribed to.
        assertThat(call("tasks/resubscribe", "{\"id\":\"" + id + "\"}").error().get("code").asInt()).isEqualTo(-32004);
    }

    @Test
    void theFourPushMethodsAreTranslatedToTheOneHandler() throws Exception {
        // An unknown task is -32001 for each (the v1.0 handler answers; v0.3 has the same code).
        assertThat(call("tasks/pushNotificationConfig/set",
                "{\"taskId\":\"t\",\"pushNotificationConfig\":{\"url\":\"https://hooks.example/a2a\"}}")
                .error().get("code").asInt()).isEqualTo(-32001);
        assertThat(call("tasks/pushNotificationConfig/get", "{\"id\":\"t\"}").error().get("code").asInt()).isEqualTo(-32001);
        assertThat(call("tasks/pushNotificationConfig/list", "{\"id\":\"t\"}").error().get("code").asInt()).isEqualTo(-32001);
        assertThat(call("tasks/pushNotificationConfig/delete", "{\"id\":\"t\",\"pushNotificationConfigId\":\"p\"}")
                .error().get("code").asInt()).isEqualTo(-32001);
        // Translated first: v0.3 params that are malformed are -32602.
        assertThat(call("tasks/pushNotificationConfig/set", "{\"taskId\":\"t\"}").error().get("code").asInt()).isEqualTo(-32602);
        // A real task: no webhook yet (v0.3's list is a bare array), and a loopback webhook refused by the SSRF guard.
        String id = call("message/send", "{\"message\":{\"kind\":\"message\",\"messageId\":\"m-push\",\"role\":\"user\","
                + "\"parts\":[{\"kind\":\"text\",\"text\":\"Hello there.\"}]}}").result().get("id").asText();
        assertThat(call("tasks/pushNotificationConfig/list", "{\"id\":\"" + id + "\"}").result()).isEmpty();
        assertThat(call("tasks/pushNotificationConfig/set", "{\"taskId\":\"" + id
                + "\",\"pushNotificationConfig\":{\"url\":\"http://127.0.0.1:9/hook\"}}").error().get("code").asInt())
                .isEqualTo(-32602);
    }

    @Test
    void theExtendedCardMethodTakesNoParamsAndIsUnsupportedWithoutTheCapability() throws Exception {
        Reply r = post(v03, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"agent/getAuthenticatedExtendedCard\"}",
                Map.of("Content-Type", "application/json"));
        assertThat(r.error().get("code").asInt()).isEqualTo(-32004);
    }

    @Test
    void theCardDeclaresTheV03PathAsASecondJsonRpcInterfaceOfVersion03() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve("/.well-known/agent-card.json")).build(),
                HttpResponse.BodyHandlers.ofString());
        // The other bindings served (HTTP+JSON, gRPC) sit between or after them; JSON-RPC 1.0 comes before 0.3.
        List<JsonNode> jsonRpc = new ArrayList<>();
        WireJson.mapper().readTree(r.body()).get("supportedInterfaces").forEach(i -> {
            if (i.get("protocolBinding").asText().equals("JSONRPC")) {
                jsonRpc.add(i);
            }
        });
        assertThat(jsonRpc).hasSize(2);
        assertThat(jsonRpc.get(0).get("protocolVersion").asText()).isEqualTo("1.0");
        assertThat(jsonRpc.get(1).get("protocolVersion").asText()).isEqualTo("0.3");
        assertThat(jsonRpc.get(1).get("url").asText()).isEqualTo(v03.toString());
    }

    // ------------------------------------------------------------------ errors (A2A v0.3 §8)

    @Test
    void anUnknownTaskIsTaskNotFoundWithTheV03ErrorShape() throws Exception {
        Reply r = call("tasks/get", "{\"id\":\"no-such-task\"}");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.error().get("code").asInt()).isEqualTo(-32001);
        // v0.3's error is {code, message}: v1.0's ErrorInfo array in data is not part of it.
        assertThat(r.error().has("data")).isFalse();
        assertThat(r.error().get("message").asText()).isNotBlank();
    }

    @Test
    void v10MethodNamesOnTheV03PathAreMethodNotFound() throws Exception {
        for (String v1 : List.of("SendMessage", "GetTask", "ListTasks", "SubscribeToTask")) {
            assertThat(call(v1, "{\"id\":\"x\"}").error().get("code").asInt()).as(v1).isEqualTo(-32601);
        }
        // v0.3 never had tasks/list on JSON-RPC (A2A v0.3 §7.3.1).
        assertThat(call("tasks/list", "{}").error().get("code").asInt()).isEqualTo(-32601);
    }

    @Test
    void v03MethodNamesOnTheV10PathAreMethodNotFound() throws Exception {
        // PROTOCOL (A2A §5.3, §9): v1.0 method names are the PascalCase operation names; v0.3's are unknown there.
        for (String v03name : List.of("message/send", "message/stream", "tasks/get", "tasks/cancel", "tasks/resubscribe",
                "tasks/pushNotificationConfig/set", "agent/getAuthenticatedExtendedCard")) {
            Reply r = post(base, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + v03name + "\",\"params\":{\"id\":\"x\"}}",
                    Map.of("Content-Type", "application/json", "A2A-Version", "1.0"));
            assertThat(r.error().get("code").asInt()).as(v03name).isEqualTo(-32601);
        }
        // And without A2A-Version the v1.0 path reads 0.3, which it does not speak there (A2A §3.6).
        Reply bare = post(base, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{}}",
                Map.of("Content-Type", "application/json"));
        assertThat(bare.error().get("code").asInt()).isEqualTo(-32009);
    }

    @Test
    void aVersionOtherThan03OnTheV03PathIsVersionNotSupported() throws Exception {
        assertThat(call("tasks/get", "{\"id\":\"x\"}", Map.of("A2A-Version", "0.3")).error().get("code").asInt())
                .isEqualTo(-32001);
        Reply r = call("tasks/get", "{\"id\":\"x\"}", Map.of("A2A-Version", "1.0"));
        assertThat(r.error().get("code").asInt()).isEqualTo(-32009);
        assertThat(r.error().get("message").asText()).contains("0.3");
    }

    @Test
    void badV03InputIsInvalidParamsNamingWhatIsWrong() throws Exception {
        Reply noKind = call("message/send", "{\"message\":{\"messageId\":\"m\",\"role\":\"user\",\"parts\":[{\"text\":\"hi\"}]}}");
        assertThat(noKind.error().get("code").asInt()).isEqualTo(-32602);
        assertThat(noKind.error().get("message").asText()).contains("params.message.parts[0].kind");
        Reply v1Role = call("message/send", "{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[]}}");
        assertThat(v1Role.error().get("message").asText()).contains("params.message.role");
        assertThat(call("message/send", "{}").error().get("code").asInt()).isEqualTo(-32602);
        assertThat(call("tasks/get", "[1]").error().get("code").asInt()).isEqualTo(-32602);
    }

    @Test
    void aBodyOverTheLimitIs413AndTheNextCallerIsServed() throws Exception {
        String big = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{\"id\":\""
                + "x".repeat(ServerConfig.DEFAULT_MAX_BODY_BYTES) + "\"}}";
        Reply r = post(v03, big, Map.of("Content-Type", "application/json"));
        assertThat(r.status()).isEqualTo(413);
        assertThat(r.error().get("code").asInt()).isEqualTo(-32600);
        assertThat(call("tasks/get", "{\"id\":\"x\"}").error().get("code").asInt()).isEqualTo(-32001);
    }

    @Test
    void aBodyThatIsNoJsonRpcRequestGetsTheJsonRpcCodes() throws Exception {
        Map<String, String> json = Map.of("Content-Type", "application/json");
        Reply parse = post(v03, "{not json", json);
        assertThat(parse.status()).isEqualTo(400);
        assertThat(parse.error().get("code").asInt()).isEqualTo(-32700);
        Reply notification = post(v03, "{\"jsonrpc\":\"2.0\",\"method\":\"tasks/get\",\"params\":{\"id\":\"x\"}}", json);
        assertThat(notification.error().get("code").asInt()).isEqualTo(-32600);
        Reply type = post(v03, "{}", Map.of("Content-Type", "text/plain"));
        assertThat(type.error().get("code").asInt()).isEqualTo(-32005);
        HttpResponse<String> get = http.send(HttpRequest.newBuilder(v03).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(get.body()).doesNotContain("Exception");
    }
}
