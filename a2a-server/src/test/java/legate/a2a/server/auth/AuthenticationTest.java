package legate.a2a.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import legate.a2a.model.A2aMethods;
import legate.a2a.server.ServerSecurity;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bearer tokens and API keys from the tokens file, as a caller sees them on a real socket
 * (README "Security"): the public card declares both schemes; every other method without an
 * accepted credential is HTTP 401 with a challenge per scheme and a JSON-RPC error in the A2A shape
 * that says nothing about which tokens exist; the file is re-read when it changes.
 */
class AuthenticationTest {
    private static final String ALICE = "alice-token-0123456789";
    private static final String BOB = "bob-key-9876543210";

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;
    private Path tokens;
    private SecuredAgent agent;

    @BeforeEach
    void start() throws Exception {
        tokens = dir.resolve("tokens");
        Files.writeString(tokens, "# who may call\nalice:" + ALICE + "\n\nbob:sha256:" + sha256Hex(BOB) + "\n");
        TokensFile file = new TokensFile(tokens);
        agent = new SecuredAgent(cleanup, new ServerSecurity(new CallerAuthentication(
                List.of(new BearerTokens(file), new ApiKeys("X-API-Key", file))), null, 0));
    }

    // PROTOCOL (A2A §7, §8.2): the card is public, and declares each scheme and the alternatives.
    @Test
    void theCardIsPublicAndDeclaresEachScheme() throws Exception {
        HttpResponse<String> card = agent.card();
        assertThat(card.statusCode()).isEqualTo(200);
        JsonNode json = WireJson.mapper().readTree(card.body());
        assertThat(json.at("/securitySchemes/bearer/httpAuthSecurityScheme/scheme").asText()).isEqualTo("Bearer");
        assertThat(json.at("/securitySchemes/apiKey/apiKeySecurityScheme/location").asText()).isEqualTo("header");
        assertThat(json.at("/securitySchemes/apiKey/apiKeySecurityScheme/name").asText()).isEqualTo("X-API-Key");
        assertThat(json.get("securityRequirements")).hasSize(2);
        assertThat(json.at("/securityRequirements/0/schemes").has("bearer")).isTrue();
        assertThat(json.at("/securityRequirements/1/schemes").has("apiKey")).isTrue();
    }

    // PROTOCOL (A2A §3.3.2, §7): every method but the card needs a credential: 401, a challenge per scheme.
    @Test
    void everyMethodWithoutACredentialIsRefusedWith401AndAChallenge() throws Exception {
        for (String method : List.of(A2aMethods.SEND_MESSAGE, A2aMethods.SEND_STREAMING_MESSAGE, A2aMethods.GET_TASK,
                A2aMethods.LIST_TASKS, A2aMethods.CANCEL_TASK, A2aMethods.SUBSCRIBE_TO_TASK,
                A2aMethods.GET_EXTENDED_AGENT_CARD, A2aMethods.CREATE_PUSH_CONFIG)) {
            HttpResponse<String> r = agent.post(method, SecuredAgent.message("hello", ""), Map.of());
            assertThat(r.statusCode()).as(method).isEqualTo(401);
            assertThat(r.headers().allValues("WWW-Authenticate")).as(method)
                    .containsExactly("Bearer realm=\"a2a\"", "ApiKey realm=\"a2a\", header=\"X-API-Key\"");
            JsonNode error = WireJson.mapper().readTree(r.body()).get("error");
            assertThat(error.get("code").asInt()).isEqualTo(-32000);
            assertThat(error.at("/data/0/reason").asText()).isEqualTo("UNAUTHENTICATED");
            assertThat(error.get("message").asText()).contains("Authorization: Bearer <token>", "X-API-Key: <key>");
        }
        assertThat(agent.turns).hasValue(0);
    }

    // Never a hint whether a token exists: a near miss and a wild guess get the same answer.
    @Test
    void aWrongCredentialGetsTheSameAnswerHoweverCloseItIs() throws Exception {
        String nearMiss = agent.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "Bearer " + ALICE + "x")).body();
        String guess = agent.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "Bearer nothing-like-it")).body();
        String wrongKey = agent.post(A2aMethods.LIST_TASKS, "{}", Map.of("X-API-Key", BOB.substring(1))).body();
        assertThat(nearMiss).isEqualTo(guess).isEqualTo(wrongKey).contains("not accepted").doesNotContain("alice", "bob");
        assertThat(nearMiss).doesNotContain("Exception", "\tat ");
    }

    @Test
    void aTokenAsBearerAndAHashedEntryAsApiKeyAreAccepted() throws Exception {
        HttpResponse<String> bearer = agent.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "bearer " + ALICE));
        HttpResponse<String> apiKey = agent.post(A2aMethods.LIST_TASKS, "{}", Map.of("X-API-Key", BOB));
        assertThat(bearer.statusCode()).isEqualTo(200);
        assertThat(bearer.body()).contains("\"result\"");
        assertThat(apiKey.statusCode()).isEqualTo(200);
        assertThat(apiKey.body()).contains("\"result\"");
    }

    // README "Security": the tokens file is re-read when it changes, without a restart.
    @Test
    void theTokensFileIsReadAgainWhenItChanges() throws Exception {
        Files.writeString(tokens, "carol:carol-token-555\n");
        // A rewrite in the same clock tick as the first write must still count as a change.
        Files.setLastModifiedTime(tokens, FileTime.fromMillis(System.currentTimeMillis() + 5000));
        assertThat(agent.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "Bearer carol-token-555"))
                .statusCode()).isEqualTo(200);
        assertThat(agent.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "Bearer " + ALICE))
                .statusCode()).isEqualTo(401);

        Files.delete(tokens);
        assertThat(agent.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "Bearer carol-token-555"))
                .statusCode()).isEqualTo(401);
    }

    @Test
    void aBrokenRewriteKeepsTheEntriesReadBefore() throws Exception {
        Files.writeString(tokens, "no colon on this line\n");
        Files.setLastModifiedTime(tokens, FileTime.fromMillis(System.currentTimeMillis() + 5000));
        assertThat(agent.post(A2aMethods.LIST_TASKS, "{}", Map.of("Authorization", "Bearer " + ALICE))
                .statusCode()).isEqualTo(200);
    }

    private static String sha256Hex(String s) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    }
}
