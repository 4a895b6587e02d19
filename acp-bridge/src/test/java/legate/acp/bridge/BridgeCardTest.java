package legate.acp.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import legate.a2a.model.LegateExtensions;
import legate.a2a.model.LegateVersion;
import legate.acp.adapter.Backend;
import legate.acp.adapter.BackendChoice;
import legate.acp.connection.AdapterCommand;
import legate.acp.protocol.Implementation;
import legate.acp.protocol.InitializeResponse;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentExtension;
import org.junit.jupiter.api.Test;

/** The Agent Card comes from the agent's answer to initialize; AGENT_NAME replaces the default name outright. */
class BridgeCardTest {
    private static final InitializeResponse CLAUDE_INIT = new InitializeResponse(1,
            new Implementation("@zed-industries/claude-agent-acp", "Claude Agent", "0.23.1"), List.of());
    private static final Backend CLAUDE = new Backend(Backend.CLAUDE, "Claude", AdapterCommand.of(List.of("node", "x.js")),
            "default", "");

    @Test
    void aKnownBackendIsNamedAfterItselfAndDescribedByItsAdapterAndVersion() {
        AgentCard card = BridgeCard.build(CLAUDE, CLAUDE_INIT, null, "http://127.0.0.1:41241/");
        assertThat(card.getName()).isEqualTo("Claude (via ACP)");
        assertThat(card.getDescription()).contains("@zed-industries/claude-agent-acp 0.23.1").contains("'default'");
        assertThat(card.getVersion()).isEqualTo(LegateVersion.get());
        assertThat(card.getSkillsList()).singleElement().satisfies(s -> assertThat(s.getTagsList()).contains("claude"));
        assertThat(card.getCapabilities().getStreaming()).isTrue();
        // README "Tasks that last": the bridge's long turns are the streams most worth resuming.
        assertThat(card.getCapabilities().getExtensionsList()).extracting(AgentExtension::getUri)
                .contains(LegateExtensions.RESUMABLE_STREAMS);
        assertThat(card.getSupportedInterfaces(0).getUrl()).isEqualTo("http://127.0.0.1:41241/");
    }

    @Test
    void agentNameReplacesTheDefaultOutright() {
        assertThat(BridgeCard.build(CLAUDE, CLAUDE_INIT, "Reviewer", "http://h/").getName()).isEqualTo("Reviewer");
    }

    @Test
    void anyOtherAgentIsNamedByItsOwnTitle() throws Exception {
        Backend generic = BackendChoice.commandLine("node agent.mjs", null).resolve();
        InitializeResponse init = new InitializeResponse(1, new Implementation("echo-agent", "Echo Agent", "1.0.0"), List.of());
        assertThat(BridgeCard.build(generic, init, null, "http://h/").getName()).isEqualTo("Echo Agent (via ACP)");
        assertThat(generic.namedBy(init).displayName()).isEqualTo("Echo Agent");
        InitializeResponse anonymous = new InitializeResponse(1, null, List.of());
        assertThat(BridgeCard.build(generic, anonymous, null, "http://h/").getName()).isEqualTo("node (via ACP)");
    }
}
