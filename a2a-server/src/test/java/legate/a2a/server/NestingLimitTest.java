package legate.a2a.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import legate.a2a.model.NestingLimit;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.testsupport.Cleanup;
import legate.testsupport.NestingProperty;
import legate.wire.json.WireJson;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.Role;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The nesting limit at input (issue 30, defect 1), on each HTTP binding and on the in-memory store:
 * a value past {@link NestingLimit#MAX_DEPTH} levels is refused before anything is stored, with the
 * binding's invalid-params answer naming the limit, and a value at the limit is stored and read back.
 *
 * <p>DEFECT: a SendMessage whose metadata nested 34 objects was accepted and stored; the task then
 * never decoded again (protobuf stops at 100 levels, and each object costs three), so GetTask and
 * ListTasks answered -32603. The gRPC binding is covered in GrpcMalformedRequestTest, the SQLite
 * and PostgreSQL stores by their own NestingPropertyTest.
 */
class NestingLimitTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static URI base;

    /** Echoes the caller's message (its parts and metadata) as the COMPLETED status message. */
    static final AgentExecutor ECHO = (ctx, events) -> {
        events.task(ctx.initialTask());
        events.status(TaskState.TASK_STATE_COMPLETED, ctx.message().toBuilder().setRole(Role.ROLE_AGENT)
                .setMessageId(RandomIds.next()).setTaskId(ctx.taskId()).setContextId(ctx.contextId()).build());
    };

    @BeforeAll
    static void start() throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0), NestingLimitTest::card, ECHO,
                new InMemoryTaskStore(), Clock.systemUTC());
        int port = cleanup.start("the echo agent", server, AgentServer::start, AgentServer::openStreams);
        base = URI.create("http://127.0.0.1:" + port + "/");
    }

    static AgentCard card(int port) {
        return AgentCard.newBuilder().setName("echo").setDescription("echoes").setVersion("1")
                .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("http://127.0.0.1:" + port + "/")
                        .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
                .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true))
                .build();
    }

    /** {"k":{"k":...1}}: {@code levels} objects one inside the other. */
    private static String nested(int levels) {
        return "{\"k\":".repeat(levels) + "1" + "}".repeat(levels);
    }

    private static JsonNode post(String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
        // A v0.3 client sends no A2A-Version (the header is v1.0's).
        if (!path.startsWith("v0.3")) {
            b.header("A2A-Version", "1.0");
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode json = WireJson.mapper().readTree(r.body());
        ((ObjectNode) json).put("httpStatus", r.statusCode());
        return json;
    }

    private static String v1Message(String metadata) {
        return "{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}],"
                + "\"metadata\":" + metadata + "}";
    }

    @Test
    void jsonRpcRefusesMetadataPastTheLimitNamingIt() throws Exception {
        JsonNode refused = post("", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
                + v1Message(nested(NestingLimit.MAX_DEPTH + 1)) + "}}");

        assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(refused.path("error").path("message").asText()).contains("message.metadata")
                .contains("at most " + NestingLimit.MAX_DEPTH + " levels");
    }

    // The case the issue reproduced: 34 objects, well inside what the JSON reader allows (64).
    @Test
    void jsonRpcRefusesTheReportedThirtyFourLevels() throws Exception {
        JsonNode refused = post("", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
                + v1Message(nested(34)) + "}}");

        assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32602);
    }

    // Past what the JSON reader itself reads (64 levels): refused there, before the limit is looked at,
    // with a message and never a trace (this one held before the limit too).
    @Test
    void jsonRpcRefusesNestingPastTheJsonReadersOwnLimitSayingSo() throws Exception {
        JsonNode refused = post("", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
                + v1Message(nested(200)) + "}}");

        assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32700);
        assertThat(refused.path("error").path("message").asText()).contains("nesting depth").doesNotContain("\tat ");
    }

    // PROTOCOL (A2A §5.4, the REST error mapping): invalid params is 400 with status INVALID_ARGUMENT.
    @Test
    void httpJsonRefusesMetadataPastTheLimitWith400() throws Exception {
        JsonNode refused = post("message:send", "{\"message\":" + v1Message(nested(NestingLimit.MAX_DEPTH + 1)) + "}");

        assertThat(refused.path("httpStatus").asInt()).isEqualTo(400);
        assertThat(refused.path("error").path("status").asText()).isEqualTo("INVALID_ARGUMENT");
        assertThat(refused.path("error").path("message").asText()).contains("at most " + NestingLimit.MAX_DEPTH + " levels");
    }

    @Test
    void v03RefusesMetadataPastTheLimitNamingIt() throws Exception {
        JsonNode refused = post("v0.3/", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":"
                + "{\"kind\":\"message\",\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"user\","
                + "\"parts\":[{\"kind\":\"text\",\"text\":\"hi\"}],\"metadata\":" + nested(NestingLimit.MAX_DEPTH + 1) + "}}}");

        assertThat(refused.path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(refused.path("error").path("message").asText()).contains("at most " + NestingLimit.MAX_DEPTH + " levels");
    }

    @Test
    void metadataAtTheLimitIsStoredAndReadBackOnEveryHttpBinding() throws Exception {
        JsonNode rpc = post("", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
                + v1Message(nested(NestingLimit.MAX_DEPTH)) + "}}");
        JsonNode rest = post("message:send", "{\"message\":" + v1Message(nested(NestingLimit.MAX_DEPTH)) + "}");
        JsonNode v03 = post("v0.3/", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":"
                + "{\"kind\":\"message\",\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"user\","
                + "\"parts\":[{\"kind\":\"text\",\"text\":\"hi\"}],\"metadata\":" + nested(NestingLimit.MAX_DEPTH) + "}}}");

        for (String id : new String[] {rpc.path("result").path("task").path("id").asText(),
                rest.path("task").path("id").asText(), v03.path("result").path("id").asText()}) {
            JsonNode read = post("", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"GetTask\",\"params\":{\"id\":\"" + id + "\"}}");
            assertThat(read.path("result").path("status").path("state").asText()).as(id).isEqualTo("TASK_STATE_COMPLETED");
            JsonNode metadata = read.path("result").path("history").path(0).path("metadata");
            assertThat(metadata).as(id).isEqualTo(WireJson.mapper().readTree(nested(NestingLimit.MAX_DEPTH)));
        }
    }

    @Test
    void randomValuesAtAndPastTheLimitAreStoredAndReadBackOrRefused() throws Exception {
        // A fresh server: the property counts the tasks its endpoint lists.
        AgentServer server = AgentServer.create(ServerConfig.loopback(0), NestingLimitTest::card, ECHO,
                new InMemoryTaskStore(), Clock.systemUTC());
        int port = cleanup.start("the echo agent of the property", server, AgentServer::start, AgentServer::openStreams);

        assertThat(NestingProperty.check(URI.create("http://127.0.0.1:" + port + "/"), 30_1L)).isNotEmpty();
    }
}
