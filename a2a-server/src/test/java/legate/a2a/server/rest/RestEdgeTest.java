package legate.a2a.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.BearerTokens;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.TokensFile;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.http.PeerForwarding;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.InstanceGroup;
import legate.a2a.server.task.SharedLeases;
import legate.testsupport.Cleanup;
import legate.testsupport.OwnThreads;
import legate.testsupport.ScriptedPeer;
import legate.wire.json.WireJson;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edge of the REST binding is the JSON-RPC binding's (README "The REST binding"): a caller
 * without a credential is 401 before its body is read, another principal's task is not found, a
 * draining server refuses new work with 503 and Retry-After while it still answers reads, a
 * conversation another instance runs is forwarded to the same resource there, and each request is
 * counted under its binding.
 */
class RestEdgeTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String ALICE = "alice-token-0123456789abcdef";
    private static final String BOB = "bob-token-0123456789abcdef01";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    private URI start(ServerConfig config, AgentExecutor executor, InstanceGroup group) throws Exception {
        AgentServer server = AgentServer.create(config, port -> LegateCards.jsonRpc("edge", "d",
                "http://127.0.0.1:" + port + "/").build(), executor, new InMemoryTaskStore(), Clock.systemUTC(), group);
        int port = cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
        return URI.create("http://127.0.0.1:" + port);
    }

    private static HttpResponse<String> send(URI base, String method, String path, String body, Map<String, String> headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(20))
                .header("A2A-Version", "1.0").method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode json(HttpResponse<String> r) throws Exception {
        return WireJson.mapper().readTree(r.body());
    }

    private static String message(String text, String contextId) {
        return "{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\","
                + (contextId == null ? "" : "\"contextId\":\"" + contextId + "\",") + "\"parts\":[{\"text\":\"" + text + "\"}]}}";
    }

    private static final AgentExecutor COMPLETES = (ctx, events) -> {
        events.task(ctx.initialTask());
        events.status(TaskState.TASK_STATE_COMPLETED, null);
    };

    // PROTOCOL (A2A §7, §3.3.2): 401 with a challenge per scheme; a foreign task reads as a missing one.
    @Test
    void aCallerWithoutACredentialIs401AndAnotherPrincipalsTaskIsNotFound() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "alice:" + ALICE + "\nbob:" + BOB + "\n");
        URI base = start(ServerConfig.loopback(0).withSecurity(new ServerSecurity(new CallerAuthentication(
                List.of(new BearerTokens(new TokensFile(tokens)))), null, 0)), COMPLETES, InstanceGroup.ALONE);

        HttpResponse<String> refused = send(base, "POST", "/message:send", message("hi", null), Map.of());
        assertThat(refused.statusCode()).isEqualTo(401);
        assertThat(refused.headers().firstValue("WWW-Authenticate").orElse("")).startsWith("Bearer");
        assertThat(json(refused).at("/error/status").asText()).isEqualTo("UNAUTHENTICATED");
        assertThat(json(refused).at("/error/details/0/reason").asText()).isEqualTo("UNAUTHENTICATED");

        String id = json(send(base, "POST", "/message:send", message("hi", null), Map.of("Authorization", "Bearer " + ALICE)))
                .at("/task/id").asText();
        assertThat(send(base, "GET", "/tasks/" + id, null, Map.of("Authorization", "Bearer " + ALICE)).statusCode())
                .isEqualTo(200);
        HttpResponse<String> foreign = send(base, "GET", "/tasks/" + id, null, Map.of("Authorization", "Bearer " + BOB));
        assertThat(foreign.statusCode()).isEqualTo(404);
        assertThat(json(foreign).at("/error/details/0/reason").asText()).isEqualTo("TASK_NOT_FOUND");
        assertThat(json(send(base, "GET", "/tasks", null, Map.of("Authorization", "Bearer " + BOB))).get("tasks")).isEmpty();
    }

    @Test
    void aDrainingServerRefusesNewWorkWith503AndStillAnswersReads() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch mayEnd = new CountDownLatch(1);
        AgentServer server = AgentServer.create(ServerConfig.loopback(0), port -> LegateCards.jsonRpc("slow", "d",
                "http://127.0.0.1:" + port + "/").build(), (ctx, events) -> {
                    events.task(ctx.initialTask());
                    started.countDown();
                    mayEnd.await(20, TimeUnit.SECONDS);
                    events.status(TaskState.TASK_STATE_COMPLETED, null);
                });
        URI base = URI.create("http://127.0.0.1:" + cleanup.start("the agent", server, AgentServer::start,
                AgentServer::openStreams));
        CompletableFuture<HttpResponse<String>> running = HTTP.sendAsync(HttpRequest.newBuilder(URI.create(base
                        + "/message:stream")).header("A2A-Version", "1.0").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(message("hi", null))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();

        server.handler().drain();
        CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(() -> {
            try {
                return server.drain(Duration.ofSeconds(20));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, OwnThreads.EACH);
        HttpResponse<String> refused = send(base, "POST", "/message:send", message("more", null), Map.of());
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(json(refused).at("/error/status").asText()).isEqualTo("UNAVAILABLE");
        assertThat(json(refused).at("/error/code").asInt()).isEqualTo(503);
        assertThat(send(base, "GET", "/tasks", null, Map.of()).statusCode()).isEqualTo(200);

        mayEnd.countDown();
        assertThat(drained.get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(running.get(20, TimeUnit.SECONDS).body()).contains("TASK_STATE_COMPLETED");
    }

    @Test
    void aConversationRunningElsewhereIsForwardedToTheSameResourceThere() throws Exception {
        ScriptedPeer runner = cleanup.register(new ScriptedPeer((request, out, self) ->
                ScriptedPeer.respond(out, 200, "application/a2a+json", "{\"task\":{\"id\":\"t-there\"}}")));
        URI base = start(ServerConfig.loopback(0), (ctx, events) -> {
            throw new AssertionError("a conversation that runs elsewhere reached this executor");
        }, SharedLeases.heldElsewhere("ctx-there", runner.url()));

        String body = message("hi", "ctx-there");
        HttpResponse<String> answer = send(base, "POST", "/message:send", body, Map.of("Authorization", "Bearer t0ken"));

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("{\"task\":{\"id\":\"t-there\"}}");
        ScriptedPeer.Exchange arrived = runner.nextRequest(Duration.ofSeconds(5));
        assertThat(arrived.method()).isEqualTo("POST");
        // The runner's JSON-RPC URL is its root; its REST paths are appended to it, as in its card.
        assertThat(arrived.path()).isEqualTo("/message:send");
        assertThat(arrived.body()).isEqualTo(body);
        assertThat(arrived.header("Authorization")).isEqualTo("Bearer t0ken");
        assertThat(arrived.header(PeerForwarding.FORWARDED)).isNotNull();
    }

    @Test
    void eachRequestIsCountedUnderTheRestBinding() throws Exception {
        URI base = start(ServerConfig.loopback(0), COMPLETES, InstanceGroup.ALONE);
        send(base, "POST", "/message:send", message("hi", null), Map.of());
        send(base, "GET", "/tasks/nope", null, Map.of());

        String scrape = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertThat(scrape).containsPattern("legate_a2a_requests_seconds_count\\{binding=\"rest\",method=\"SendMessage\",outcome=\"ok\"")
                .containsPattern("binding=\"rest\",method=\"GetTask\",outcome=\"-32001\"");
    }
}
