package legate.a2a.server.v03;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ProtocolBinding;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.InstanceGroup;
import legate.a2a.server.task.SharedLeases;
import legate.testsupport.Cleanup;
import legate.testsupport.OwnThreads;
import legate.testsupport.ScriptedPeer;
import legate.wire.json.WireJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The parts of the edge the v0.3 endpoint shares with v1.0 beyond a single call: metrics under
 * their own binding label, the drain's 503 for new turns while reads are served, and forwarding a
 * conversation that another instance runs to that instance's v0.3 path, body untouched.
 */
class V03EdgeTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private static HttpResponse<String> v03(URI base, String method, String params) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(base.resolve("v0.3/")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body(method, params))).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String body(String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"" + method + "\",\"params\":" + params + "}";
    }

    private static String send(String text, String extra) {
        return "{\"message\":{\"kind\":\"message\",\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"user\"," + extra
                + "\"parts\":[{\"kind\":\"text\",\"text\":\"" + text + "\"}]}}";
    }

    @Test
    void v03RequestsAreCountedUnderTheirOwnBindingLabelAndMethodName() throws Exception {
        AgentServer server = V03TestAgent.server(ServerConfig.loopback(0));
        URI base = URI.create("http://127.0.0.1:" + cleanup.start("agent", server, AgentServer::start,
                AgentServer::openStreams) + "/");
        v03(base, "message/send", send("one", ""));
        v03(base, "tasks/get", "{\"id\":\"nope\"}");

        String scrape = server.metrics().scrape();
        assertThat(scrape).containsPattern("binding=\"jsonrpc-0.3\"[^\\n]*method=\"message/send\"[^\\n]*outcome=\"ok\"")
                .containsPattern("binding=\"jsonrpc-0.3\"[^\\n]*method=\"tasks/get\"[^\\n]*outcome=\"-32001\"")
                .containsPattern("legate_a2a_open_streams\\{binding=\"jsonrpc-0.3\"");
    }

    @Test
    void whileDrainingANewTurnIs503ButReadsAndCancelsAreServed() throws Exception {
        AgentServer server = V03TestAgent.server(ServerConfig.loopback(0));
        URI base = URI.create("http://127.0.0.1:" + cleanup.start("agent", server, AgentServer::start,
                AgentServer::openStreams) + "/");
        String slow = WireJson.mapper().readTree(v03(base, "message/send",
                send("slow", "").replace("}}", "},\"configuration\":{\"blocking\":false}}")).body()).at("/result/id").asText();

        server.handler().drain();
        CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(() -> {
            try {
                return server.drain(Duration.ofSeconds(20));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, OwnThreads.EACH);
        HttpResponse<String> refused = v03(base, "message/send", send("more", ""));
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
        JsonNode error = WireJson.mapper().readTree(refused.body()).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32603);
        assertThat(error.has("data")).isFalse();
        assertThat(v03(base, "tasks/get", "{\"id\":\"" + slow + "\"}").statusCode()).isEqualTo(200);
        assertThat(WireJson.mapper().readTree(v03(base, "tasks/cancel", "{\"id\":\"" + slow + "\"}").body())
                .at("/result/status/state").asText()).isEqualTo("canceled");
        assertThat(drained.get(20, TimeUnit.SECONDS)).as("the canceled turn ended within the grace").isTrue();
    }

    @Test
    void eachJsonRpcVersionIsServedOnlyWhenA2aBindingsNamesIt() throws Exception {
        // PROTOCOL (A2A §8.3.2): a card must not advertise an interface nothing answers, nor the other way round.
        int only03 = V03TestAgent.serve(cleanup, ServerConfig.loopback(0).withBindings(List.of(ProtocolBinding.JSONRPC_0_3)));
        URI base03 = URI.create("http://127.0.0.1:" + only03 + "/");
        assertThat(v03(base03, "tasks/get", "{\"id\":\"x\"}").body()).contains("-32001");
        assertThat(HTTP.send(HttpRequest.newBuilder(base03).header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body("GetTask", "{\"id\":\"x\"}"))).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
        JsonNode card = WireJson.mapper().readTree(HTTP.send(HttpRequest.newBuilder(base03.resolve("/.well-known/agent-card.json"))
                .build(), HttpResponse.BodyHandlers.ofString()).body());
        assertThat(card.get("supportedInterfaces")).hasSize(1);
        assertThat(card.at("/supportedInterfaces/0/protocolVersion").asText()).isEqualTo("0.3");

        int only10 = V03TestAgent.serve(cleanup, ServerConfig.loopback(0).withBindings(List.of(ProtocolBinding.JSONRPC)));
        assertThat(v03(URI.create("http://127.0.0.1:" + only10 + "/"), "tasks/get", "{\"id\":\"x\"}").statusCode()).isEqualTo(404);
    }

    @Test
    void aConversationAnotherInstanceRunsIsForwardedToItsV03PathAsItCame() throws Exception {
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"kind\":\"task\",\"id\":\"t\",\"contextId\":\"ctx-there\","
                + "\"status\":{\"state\":\"completed\"}}}";
        ScriptedPeer runner = cleanup.register(new ScriptedPeer((request, out, self) ->
                ScriptedPeer.respond(out, 200, "application/json", answer)));
        AgentServer server = AgentServer.create(ServerConfig.loopback(0), V03TestAgent::card, new V03TestAgent(),
                new InMemoryTaskStore(), Clock.systemUTC(), SharedLeases.heldElsewhere("ctx-there", runner.url()));
        URI base = URI.create("http://127.0.0.1:" + cleanup.start("agent", server, AgentServer::start,
                AgentServer::openStreams) + "/");

        String params = send("hi", "\"contextId\":\"ctx-there\",");
        HttpResponse<String> r = v03(base, "message/send", params);

        assertThat(r.body()).isEqualTo(answer);
        ScriptedPeer.Exchange arrived = runner.nextRequest(Duration.ofSeconds(5));
        assertThat(arrived.path()).isEqualTo("/v0.3/");
        assertThat(arrived.body()).isEqualTo(body("message/send", params));
        assertThat(arrived.header("A2A-Version")).isNull();
    }
}
