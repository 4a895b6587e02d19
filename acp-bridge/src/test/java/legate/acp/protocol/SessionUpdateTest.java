package legate.acp.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** ACP messages read leniently where peers extend them, strictly where the spec says MUST. */
class SessionUpdateTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static SessionUpdate update(String json) throws Exception {
        return SessionUpdate.fromJson(JSON.readTree(json));
    }

    @Test
    void eachTranslatedKindIsReadIntoItsRecord() throws Exception {
        assertThat(update("{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}"))
                .isEqualTo(new SessionUpdate.AgentMessageChunk("hi"));
        assertThat(update("{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"image\",\"data\":\"...\"}}"))
                .as("only a text block has text").isEqualTo(new SessionUpdate.AgentMessageChunk(""));
        SessionUpdate.ToolCall t = (SessionUpdate.ToolCall) update("{\"sessionUpdate\":\"tool_call\",\"toolCallId\":\"t\","
                + "\"title\":\"Edit\",\"kind\":\"edit\",\"status\":\"pending\",\"locations\":[{\"path\":\"/a\"},{\"line\":3}]}");
        assertThat(t.toolKind()).isEqualTo("edit");
        assertThat(t.paths()).containsExactly("/a");
        SessionUpdate.Plan p = (SessionUpdate.Plan) update("{\"sessionUpdate\":\"plan\",\"entries\":[{\"content\":\"x\","
                + "\"priority\":\"high\",\"status\":\"in_progress\"}]}");
        assertThat(p.entries()).containsExactly(new SessionUpdate.PlanEntry("x", "high", "in_progress"));
        SessionUpdate.CurrentModeUpdate m = (SessionUpdate.CurrentModeUpdate)
                update("{\"sessionUpdate\":\"current_mode_update\",\"currentModeId\":\"plan\"}");
        assertThat(m.currentModeId()).isEqualTo("plan");
        // The raw update is kept: it goes to the status message's metadata.acp.
        assertThat(m.raw().path("sessionUpdate").asText()).isEqualTo("current_mode_update");
    }

    @Test
    void aKindNobodyKnowsIsKeptRawNotRejected() throws Exception {
        // PROTOCOL (ACP): new update kinds appear with new agent versions; they must never be fatal.
        JsonNode raw = JSON.readTree("{\"sessionUpdate\":\"hologram\",\"depth\":3}");
        assertThat(SessionUpdate.fromJson(raw)).isEqualTo(new SessionUpdate.Unknown("hologram", raw));
        assertThat(SessionUpdate.fromJson(null)).isInstanceOf(SessionUpdate.Unknown.class);
    }

    @Test
    void stopReasonsAreAnOpenSet() throws Exception {
        assertThat(PromptResponse.fromJson(JSON.readTree("{\"stopReason\":\"end_turn\"}")).stopReason())
                .isEqualTo(StopReason.END_TURN);
        assertThat(PromptResponse.fromJson(JSON.readTree("{\"stopReason\":\"nap_time\",\"usage\":{\"totalTokens\":3}}")))
                .satisfies(r -> {
                    assertThat(r.stopReason().value()).isEqualTo("nap_time");
                    assertThat(r.usage().path("totalTokens").asInt()).isEqualTo(3);
                });
        assertThatThrownBy(() -> PromptResponse.fromJson(JSON.readTree("{}"))).hasMessageContaining("stopReason");
    }

    @Test
    void theHandshakeMessagesHaveTheShapesThePeersRequire() throws Exception {
        JsonNode init = new InitializeRequest(new Implementation("legate", null, "0.1")).toJson();
        assertThat(init.path("protocolVersion").asInt()).isEqualTo(1);
        assertThat(init.path("clientCapabilities").path("fs").path("readTextFile").asBoolean()).isTrue();
        assertThat(init.path("clientCapabilities").path("fs").path("writeTextFile").asBoolean()).isTrue();
        assertThat(init.path("clientCapabilities").path("terminal").asBoolean(true)).isFalse();
        // PEER (claude-agent-acp, codex-acp): mcpServers must be present; claude needs an absolute cwd.
        assertThat(new NewSessionRequest(Path.of("/tmp")).toJson().path("mcpServers").isArray()).isTrue();
        assertThatThrownBy(() -> new NewSessionRequest(Path.of("relative"))).hasMessageContaining("absolute");
        assertThatThrownBy(() -> InitializeResponse.fromJson(JSON.readTree("{\"agentInfo\":{}}")))
                .hasMessageContaining("protocolVersion");
        InitializeResponse r = InitializeResponse.fromJson(JSON.readTree("{\"protocolVersion\":1,\"authMethods\":"
                + "[{\"id\":\"chatgpt\",\"name\":\"ChatGPT\"}],\"agentInfo\":{\"name\":\"codex-acp\",\"title\":\"Codex\",\"version\":\"0.16.0\"}}"));
        assertThat(r.agentInfo().displayName()).isEqualTo("Codex");
        assertThat(r.authMethods()).extracting(AuthMethod::id).containsExactly("chatgpt");
    }
}
