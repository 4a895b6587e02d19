package legate.a2a.server.v03;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.auth.BearerTokens;
import legate.a2a.server.auth.CallerAuthentication;
import legate.a2a.server.auth.TokensFile;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The v0.3 endpoint behind the same edge as v1.0 (README "Security"): a caller without a
 * credential is 401 before anything is read, another principal's task is not found whichever
 * version asks, and agent/getAuthenticatedExtendedCard answers the extended card in v0.3's shape.
 */
class V03SecuredEndpointTest {
    private static final String ALICE = "alice-token-0123456789";
    private static final String BOB = "bob-token-9876543210";
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private URI base;

    @BeforeEach
    void start() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "alice:" + ALICE + "\nbob:" + BOB + "\n");
        Path extended = Files.writeString(dir.resolve("extended.json"), """
                {"skills": [{"id": "deep", "name": "Deep count", "description": "for known callers", "tags": ["count"]}]}
                """);
        ServerSecurity security = new ServerSecurity(new CallerAuthentication(List.of(new BearerTokens(new TokensFile(tokens)))),
                ServerSecurity.readExtendedCard(extended), 0);
        int port = V03TestAgent.serve(cleanup, ServerConfig.loopback(0).withSecurity(security));
        base = URI.create("http://127.0.0.1:" + port + "/");
    }

    private HttpResponse<String> post(String path, String token, String version, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        if (version != null) {
            b.header("A2A-Version", version);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private JsonNode v03(String token, String method, String params) throws Exception {
        return WireJson.mapper().readTree(post("v0.3/", token, null,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + method + "\",\"params\":" + params + "}").body());
    }

    @Test
    void aV03CallWithoutACredentialIs401WithAChallengeAndAV03ErrorBody() throws Exception {
        HttpResponse<String> r = post("v0.3/", null, null,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{\"id\":\"x\"}}");
        assertThat(r.statusCode()).isEqualTo(401);
        assertThat(r.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Bearer"));
        JsonNode error = WireJson.mapper().readTree(r.body()).get("error");
        assertThat(error.get("code").asInt()).isEqualTo(-32000);
        assertThat(error.has("data")).isFalse();
    }

    @Test
    void anotherPrincipalsTaskIsNotFoundOverV03AndItsOwnerSeesItOverV10() throws Exception {
        JsonNode task = v03(ALICE, "message/send", "{\"message\":{\"kind\":\"message\",\"messageId\":\"m1\",\"role\":\"user\","
                + "\"parts\":[{\"kind\":\"text\",\"text\":\"hello there\"}]}}").get("result");
        String id = task.get("id").asText();
        assertThat(v03(BOB, "tasks/get", "{\"id\":\"" + id + "\"}").at("/error/code").asInt()).isEqualTo(-32001);
        assertThat(v03(BOB, "tasks/cancel", "{\"id\":\"" + id + "\"}").at("/error/code").asInt()).isEqualTo(-32001);
        // The same task, the same store: v1.0 shows what v0.3 created, in v1.0's shapes.
        JsonNode v1 = WireJson.mapper().readTree(post("", ALICE, "1.0",
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"GetTask\",\"params\":{\"id\":\"" + id + "\"}}").body());
        assertThat(v1.at("/result/status/state").asText()).isEqualTo("TASK_STATE_COMPLETED");
    }

    @Test
    void theExtendedCardIsAV03CardWithItsSchemesTheV03UrlAndTheExtraSkill() throws Exception {
        JsonNode card = v03(ALICE, "agent/getAuthenticatedExtendedCard", "{}").get("result");
        // PROTOCOL (A2A v0.3 §5.5): one url with its preferredTransport and protocolVersion, OpenAPI-style schemes.
        assertThat(card.get("protocolVersion").asText()).isEqualTo("0.3");
        assertThat(card.get("url").asText()).isEqualTo(base.resolve("v0.3/").toString());
        assertThat(card.get("preferredTransport").asText()).isEqualTo("JSONRPC");
        assertThat(card.get("supportsAuthenticatedExtendedCard").asBoolean()).isTrue();
        assertThat(card.has("supportedInterfaces")).isFalse();
        JsonNode scheme = card.get("securitySchemes").elements().next();
        assertThat(scheme.get("type").asText()).isEqualTo("http");
        assertThat(scheme.get("scheme").asText()).isEqualToIgnoringCase("bearer");
        assertThat(card.get("security").get(0).fieldNames().next()).isEqualTo(card.get("securitySchemes").fieldNames().next());
        assertThat(card.at("/skills/0/id").asText()).isEqualTo("deep");
    }
}
