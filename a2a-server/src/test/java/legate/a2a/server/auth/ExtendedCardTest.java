package legate.a2a.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import legate.a2a.model.A2aMethods;
import legate.a2a.server.ServerSecurity;
import legate.testsupport.Cleanup;
import legate.wire.json.WireJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * GetExtendedAgentCard (A2A §3.1.11): with an extended card configured the public card says
 * {@code capabilities.extendedAgentCard: true} and an authenticated caller gets the public card with
 * the configured fields merged over it; an unauthenticated caller gets 401, not the card.
 */
class ExtendedCardTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    @Test
    void anAuthenticatedCallerGetsThePublicCardWithTheExtendedFieldsMergedOver() throws Exception {
        Path tokens = Files.writeString(dir.resolve("tokens"), "alice:alice-token-0123456789\n");
        Path extended = Files.writeString(dir.resolve("extended.json"), """
                {"description": "for partners", "skills": [{"id": "deep", "name": "Deep review",
                 "description": "only for known callers", "tags": ["review"]}]}
                """);
        SecuredAgent agent = new SecuredAgent(cleanup, new ServerSecurity(new CallerAuthentication(
                List.of(new BearerTokens(new TokensFile(tokens)))), ServerSecurity.readExtendedCard(extended), 0));

        JsonNode card = WireJson.mapper().readTree(agent.card().body());
        assertThat(card.at("/capabilities/extendedAgentCard").asBoolean()).isTrue();
        assertThat(card.get("description").asText()).isEqualTo("d");

        JsonNode got = agent.call("alice-token-0123456789", A2aMethods.GET_EXTENDED_AGENT_CARD, "{}").get("result");
        assertThat(got.get("name").asText()).isEqualTo("secured");
        assertThat(got.get("description").asText()).isEqualTo("for partners");
        assertThat(got.at("/skills/0/id").asText()).isEqualTo("deep");
        assertThat(got.has("securitySchemes")).isTrue();

        assertThat(agent.post(A2aMethods.GET_EXTENDED_AGENT_CARD, "{}", Map.of()).statusCode()).isEqualTo(401);
    }
}
