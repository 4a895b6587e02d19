package legate.a2a.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.card.LegateCards;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import legate.wire.sse.SseEvent;
import legate.wire.sse.SseParser;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The HTTP+JSON binding as a client sees it on a real loopback socket (A2A §11, README "The REST
 * binding"): paths under the interface URL's path, status codes, google.rpc.Status error bodies and
 * SSE frames. One server serves every test, so each bad request also proves the next caller is
 * still served; none may ever be answered with a stack trace or Jetty's HTML error page.
 */
class RestBindingTest {
    private static final int BODY_LIMIT = 4096;
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static URI base;
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** An empty text asks for input; "silent" ends the turn publishing nothing; any other text works once and completes. */
    static final class AskingExecutor implements AgentExecutor {
        @Override
        public void execute(RequestContext ctx, EventSink events) {
            if (ctx.text().equals("silent")) {
                return;
            }
            events.task(ctx.initialTask());
            if (ctx.text().isEmpty()) {
                events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText("what text?"));
                return;
            }
            events.status(TaskState.TASK_STATE_WORKING, events.agentText("working"));
            events.status(TaskState.TASK_STATE_COMPLETED, null);
        }
    }

    @BeforeAll
    static void start() throws Exception {
        // The interface URL has a path: every REST path must be found under it, and only there.
        AgentServer server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/a2a/", BODY_LIMIT, Duration.ofSeconds(2)),
                port -> LegateCards.jsonRpc("asker", "d", "http://127.0.0.1:" + port + "/a2a/").build(),
                new AskingExecutor());
        int port = cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
        base = URI.create("http://127.0.0.1:" + port + "/a2a");
    }

    record Reply(int status, String contentType, JsonNode body, String raw, HttpResponse<String> response) {
        JsonNode error() {
            return body.get("error");
        }

        String reason() {
            JsonNode details = error().get("details");
            return details.isEmpty() ? null : details.get(0).get("reason").asText();
        }
    }

    static Reply send(String method, String path, String body, String contentType, String version) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (version != null) {
            b.header("A2A-Version", version);
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        String type = r.headers().firstValue("Content-Type").orElse("");
        // Never an HTML page or a stack trace: every answer of this binding is JSON.
        JsonNode json = r.body().isEmpty() ? null : WireJson.mapper().readTree(r.body());
        return new Reply(r.statusCode(), type, json, r.body(), r);
    }

    static Reply get(String path) throws Exception {
        return send("GET", path, null, null, "1.0");
    }

    static Reply post(String path, String body) throws Exception {
        return send("POST", path, body, "application/json", "1.0");
    }

    static String message(String text, String taskId) {
        return "{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\","
                + (taskId == null ? "" : "\"taskId\":\"" + taskId + "\",") + "\"parts\":[{\"text\":\"" + text + "\"}]}}";
    }

    /** The error shape of every refusal (A2A §11.6): google.rpc.Status, code repeating the HTTP status. */
    static void assertError(Reply r, int status, String statusName, String reason) {
        assertThat(r.status()).as(r.raw()).isEqualTo(status);
        // PROTOCOL (A2A 1.0.0 §11.1, §11.6): error bodies are application/json too.
        assertThat(r.contentType()).startsWith("application/json");
        assertThat(r.error().get("code").asInt()).isEqualTo(status);
        assertThat(r.error().get("status").asText()).isEqualTo(statusName);
        assertThat(r.error().get("message").asText()).isNotBlank().doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.reason()).isEqualTo(reason);
        if (reason != null) {
            JsonNode info = r.error().get("details").get(0);
            assertThat(info.get("@type").asText()).isEqualTo("type.googleapis.com/google.rpc.ErrorInfo");
            assertThat(info.get("domain").asText()).isEqualTo("a2a-protocol.org");
        }
    }

    // ------------------------------------------------------------------ the happy path

    @Test
    void sendMessageAnswersTheWrappedTaskAndGetTaskTheBareOne() throws Exception {
        Reply r = post("/message:send", message("hi", null));
        assertThat(r.status()).isEqualTo(200);
        // PROTOCOL (A2A 1.0.0 §11.1, §11.4): HTTP+JSON responses are application/json (1.0.1 prefers a2a+json).
        assertThat(r.contentType()).startsWith("application/json");
        JsonNode task = r.body().get("task");
        assertThat(task.get("status").get("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        String id = task.get("id").asText();

        Reply got = get("/tasks/" + id);
        assertThat(got.status()).isEqualTo(200);
        assertThat(got.body().get("id").asText()).isEqualTo(id);
        assertThat(got.body().has("history")).isTrue();
        // PROTOCOL (A2A §3.2.4): historyLength 0 leaves the history out; it travels in the query on GET.
        assertThat(get("/tasks/" + id + "?historyLength=0").body().has("history")).isFalse();
    }

    @Test
    void anInputRequiredTaskIsAnsweredIntoTheSameTaskAndListedWithItsContext() throws Exception {
        JsonNode asked = post("/message:send", message("", null)).body().get("task");
        assertThat(asked.get("status").get("state").asText()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
        JsonNode done = post("/message:send", message("the text", asked.get("id").asText())).body().get("task");
        assertThat(done.get("id").asText()).isEqualTo(asked.get("id").asText());
        assertThat(done.get("status").get("state").asText()).isEqualTo("TASK_STATE_COMPLETED");

        Reply list = get("/tasks?contextId=" + asked.get("contextId").asText() + "&pageSize=10");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.body().get("tasks")).extracting(t -> t.get("id").asText()).containsExactly(asked.get("id").asText());
        // PROTOCOL (A2A §3.1.4): nextPageToken, pageSize and totalSize are always present.
        assertThat(list.body().get("nextPageToken").asText()).isEmpty();
        assertThat(list.body().get("totalSize").asInt()).isEqualTo(1);
        assertThat(get("/tasks?status=TASK_STATE_INPUT_REQUIRED&contextId=" + asked.get("contextId").asText())
                .body().get("tasks")).isEmpty();
    }

    @Test
    void aCancelWithoutABodyAsTheJsClientSendsItReachesTheTask() throws Exception {
        String id = post("/message:send", message("", null)).body().get("task").get("id").asText();
        // PEER (@a2a-js/sdk 1.2.0): its client POSTs :cancel with Content-Type: application/json and no body.
        Reply canceled = send("POST", "/tasks/" + id + ":cancel", null, "application/json", "1.0");
        assertThat(canceled.status()).as(canceled.raw()).isEqualTo(200);
        assertThat(canceled.body().get("status").get("state").asText()).isEqualTo("TASK_STATE_CANCELED");
        // PROTOCOL (A2A 1.0.0 §5.4): TaskNotCancelable is 409 Conflict (1.0.1 and the JS SDK say 400).
        assertError(post("/tasks/" + id + ":cancel", "{}"), 409, "FAILED_PRECONDITION", "TASK_NOT_CANCELABLE");
    }

    @Test
    void streamingAnswersFramesOfBareStreamResponsesEachWithItsEventId() throws Exception {
        HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(URI.create(base + "/message:stream"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(message("hi", null))).build(), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(r.headers().firstValue("Content-Type")).hasValue("text/event-stream");
        List<SseEvent> frames = new ArrayList<>();
        new SseParser(1 << 20).parse(r.body(), frames::add);
        // PROTOCOL (A2A §11.7): no JSON-RPC envelope; each data is one StreamResponse.
        assertThat(frames).extracting(f -> WireJson.mapper().readTree(f.data()).fieldNames().next())
                .containsExactly("task", "statusUpdate", "statusUpdate");
        // The resumable-streams extension: every frame has the id of its event in the task's log.
        assertThat(frames).extracting(SseEvent::id).containsExactly("1", "2", "3");
        String taskId = WireJson.mapper().readTree(frames.get(0).data()).get("task").get("id").asText();

        // Resumed after event 1, by GET (the proto's verb) as by POST (the spec's): the events after it.
        for (String verb : List.of("GET", "POST")) {
            HttpResponse<InputStream> again = http.send(HttpRequest.newBuilder(URI.create(base + "/tasks/" + taskId + ":subscribe"))
                    .header("A2A-Version", "1.0").header("Last-Event-ID", "1")
                    .method(verb, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofInputStream());
            List<SseEvent> replay = new ArrayList<>();
            new SseParser(1 << 20).parse(again.body(), replay::add);
            assertThat(replay).as(verb).extracting(SseEvent::id).containsExactly("2", "3");
        }
    }

    // ------------------------------------------------------------------ bad input

    @Test
    void anUnknownPathIsNotFoundInTheBindingsErrorShape() throws Exception {
        assertError(get("/nothing/here/at/all"), 404, "NOT_FOUND", null);
        assertError(post("/tasks/abc:frobnicate", "{}"), 404, "NOT_FOUND", null);
        assertError(post("/message:sendd", message("x", null)), 404, "NOT_FOUND", null);
    }

    @Test
    void aWrongMethodIs405NamingTheMethodsThePathAnswers() throws Exception {
        Reply r = get("/message:send");
        assertError(r, 405, "NOT_FOUND", null);
        assertThat(r.response().headers().firstValue("Allow")).hasValue("POST");
        assertThat(send("DELETE", "/tasks/abc", null, null, "1.0").response().headers().firstValue("Allow")).hasValue("GET");
    }

    @Test
    void aMalformedPathIsInvalidParams() throws Exception {
        assertError(post("/tasks/:cancel", "{}"), 400, "INVALID_ARGUMENT", "INVALID_PARAMS");
        // A client's URI class refuses to send a bad escape; a socket sends what it is given.
        try (Socket socket = new Socket("127.0.0.1", base.getPort())) {
            socket.getOutputStream().write(("GET /a2a/tasks/%zz HTTP/1.1\r\nHost: 127.0.0.1\r\nA2A-Version: 1.0\r\n"
                    + "Connection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 400").contains("application/json").contains("INVALID_PARAMS");
        }
    }

    @Test
    void aBodyThatIsNotJsonOrNotAnObjectIsInvalidParams() throws Exception {
        // PEER (@a2a-js/sdk 1.2.0): a body that does not parse is INVALID_ARGUMENT with reason INVALID_PARAMS.
        assertError(post("/message:send", "{\"message\":"), 400, "INVALID_ARGUMENT", "INVALID_PARAMS");
        assertError(post("/message:send", "[1,2]"), 400, "INVALID_ARGUMENT", "INVALID_PARAMS");
        assertError(post("/message:send", "{\"message\":{\"role\":\"ROLE_USER\",\"parts\":7}}"), 400,
                "INVALID_ARGUMENT", "INVALID_PARAMS");
    }

    @Test
    void aWrongContentTypeIsContentTypeNotSupported() throws Exception {
        // PROTOCOL (A2A 1.0.0 §5.4): ContentTypeNotSupported is 415 Unsupported Media Type (1.0.1 says 400).
        assertError(send("POST", "/message:send", message("x", null), "text/plain", "1.0"), 415, "INVALID_ARGUMENT",
                "CONTENT_TYPE_NOT_SUPPORTED");
        assertError(send("POST", "/message:send", message("x", null), null, "1.0"), 415, "INVALID_ARGUMENT",
                "CONTENT_TYPE_NOT_SUPPORTED");
        // Requests in either JSON media type are read: 1.0.0's application/json and 1.0.1's application/a2a+json.
        Reply a2aJson = send("POST", "/message:send", message("x", null), "application/a2a+json", "1.0");
        assertThat(a2aJson.status()).isEqualTo(200);
        assertThat(a2aJson.contentType()).startsWith("application/json");
    }

    @Test
    void anAgentThatAnswersNothingIsInvalidAgentResponse() throws Exception {
        // PROTOCOL (A2A 1.0.0 §5.4): InvalidAgentResponse is 502 Bad Gateway (1.0.1 says 500): the
        // server is a gateway to an agent whose answer was no answer.
        assertError(post("/message:send", message("silent", null)), 502, "INTERNAL", "INVALID_AGENT_RESPONSE");
    }

    @Test
    void aMissingVersionIsVersionNotSupportedAndTheQueryParameterIsRead() throws Exception {
        assertError(send("GET", "/tasks/x", null, null, null), 400, "FAILED_PRECONDITION", "VERSION_NOT_SUPPORTED");
        assertError(send("GET", "/tasks/x?A2A-Version=1.0", null, null, null), 404, "NOT_FOUND", "TASK_NOT_FOUND");
        assertError(send("GET", "/tasks/x", null, null, "1.0.4"), 404, "NOT_FOUND", "TASK_NOT_FOUND");
    }

    @Test
    void queryParametersOfTheWrongTypeAreInvalidParams() throws Exception {
        assertError(get("/tasks?pageSize=lots"), 400, "INVALID_ARGUMENT", "INVALID_PARAMS");
        // PEER (@a2a-js/sdk 1.2.0): the v0.3 spelling of a state is refused, not read as "no filter".
        assertError(get("/tasks?status=working"), 400, "INVALID_ARGUMENT", "INVALID_PARAMS");
        assertError(get("/tasks?includeArtifacts=yes"), 400, "INVALID_ARGUMENT", "INVALID_PARAMS");
        assertError(get("/tasks?pageSize=500"), 400, "INVALID_ARGUMENT", "INVALID_PARAMS");
    }

    @Test
    void aSubscriptionToAFinishedTaskIsAPlainErrorNotAStream() throws Exception {
        String id = post("/message:send", message("hi", null)).body().get("task").get("id").asText();
        Reply r = post("/tasks/" + id + ":subscribe", null);
        assertError(r, 400, "FAILED_PRECONDITION", "UNSUPPORTED_OPERATION");
        assertError(post("/tasks/nope:subscribe", null), 404, "NOT_FOUND", "TASK_NOT_FOUND");
    }

    // DEFECT (found by the official TCK, PUSH-DEL-001): a DELETE sent with neither a body, a Content-Type
    // nor a Content-Length (as Python's httpx sends it) was refused 415; GET and DELETE carry no body.
    @Test
    void aDeleteWithoutBodyOrContentTypeReachesTheHandler() throws Exception {
        try (java.net.Socket socket = new java.net.Socket("127.0.0.1", base.getPort())) {
            socket.getOutputStream().write(("DELETE /a2a/tasks/t1/pushNotificationConfigs/c1 HTTP/1.1\r\n"
                    + "Host: 127.0.0.1\r\nA2A-Version: 1.0\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            String answer = new String(socket.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(answer).startsWith("HTTP/1.1 404").contains("TASK_NOT_FOUND").doesNotContain("Content-Type must be");
        }
    }

    @Test
    void pushConfigurationPathsReachTheHandlerAndTheExtendedCardIsRefusedAsTheCardSays() throws Exception {
        // PROTOCOL (A2A §11.3): the push paths; an unknown task is 404 on each.
        assertError(post("/tasks/t1/pushNotificationConfigs", "{\"taskId\":\"t1\",\"url\":\"https://x.example/h\"}"),
                404, "NOT_FOUND", "TASK_NOT_FOUND");
        assertError(get("/tasks/t1/pushNotificationConfigs"), 404, "NOT_FOUND", "TASK_NOT_FOUND");
        assertError(get("/tasks/t1/pushNotificationConfigs/c1"), 404, "NOT_FOUND", "TASK_NOT_FOUND");
        assertError(send("DELETE", "/tasks/t1/pushNotificationConfigs/c1", null, null, "1.0"), 404, "NOT_FOUND",
                "TASK_NOT_FOUND");
        // A real task: the path's id is the task's even when the body names none; no webhook yet; a loopback
        // webhook refused by the SSRF guard as invalid params.
        String id = post("/message:send", message("hi", null)).body().get("task").get("id").asText();
        assertThat(get("/tasks/" + id + "/pushNotificationConfigs").body().path("configs")).isEmpty();
        assertError(post("/tasks/" + id + "/pushNotificationConfigs", "{\"url\":\"http://127.0.0.1:9/hook\"}"),
                400, "INVALID_ARGUMENT", "INVALID_PARAMS");
        assertError(get("/extendedAgentCard"), 400, "FAILED_PRECONDITION", "UNSUPPORTED_OPERATION");
    }

    @Test
    void aTenantSegmentIsAcceptedBeforeEveryPath() throws Exception {
        assertThat(post("/acme/message:send", message("hi", null)).body().get("task").get("status").get("state").asText())
                .isEqualTo("TASK_STATE_COMPLETED");
        assertError(get("/acme/tasks/nope"), 404, "NOT_FOUND", "TASK_NOT_FOUND");
    }

    @Test
    void aBodyOverTheLimitIs413() throws Exception {
        Reply r = post("/message:send", message("x".repeat(BODY_LIMIT), null));
        assertError(r, 413, "INVALID_ARGUMENT", "INVALID_REQUEST");
    }
}
