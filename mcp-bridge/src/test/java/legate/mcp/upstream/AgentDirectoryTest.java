package legate.mcp.upstream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.Map;
import legate.a2a.client.ClientConfig;
import legate.mcp.McpConfig;
import org.junit.jupiter.api.Test;

/** The {@code agent} argument: A2A_URL and A2A_AGENTS, an omitted alias, an unknown one. */
class AgentDirectoryTest {
    @Test
    void a2aAgentsListsAliasesInOrderAndA2aUrlAloneIsTheDefaultAgent() {
        assertThat(McpConfig.agents("coder=http://127.0.0.1:41241/, stats = http://box:1/a2a", "http://ignored:1/"))
                .containsExactly(Map.entry("coder", URI.create("http://127.0.0.1:41241/")),
                        Map.entry("stats", URI.create("http://box:1/a2a")));
        assertThat(McpConfig.agents(null, null)).containsExactly(Map.entry("default", URI.create("http://localhost:41241/")));
        assertThat(McpConfig.agents(" ", "http://127.0.0.1:9/")).containsOnlyKeys("default");
    }

    @Test
    void aMalformedA2aAgentsEntryIsRefusedByName() {
        assertThatThrownBy(() -> McpConfig.agents("coder", null)).hasMessageContaining("\"coder\"");
        assertThatThrownBy(() -> McpConfig.agents("a=http://x:1/,a=http://y:1/", null)).hasMessageContaining("twice");
        assertThatThrownBy(() -> McpConfig.agents("a=ftp://x/", null)).hasMessageContaining("http(s)");
    }

    @Test
    void theAgentMayBeOmittedWhileExactlyOneIsConfigured() {
        try (AgentDirectory one = directory(Map.of("solo", URI.create("http://127.0.0.1:1/")))) {
            assertThat(one.resolve(null).alias()).isEqualTo("solo");
            assertThat(one.describeArgument()).contains("may be omitted");
        }
    }

    @Test
    void anUnknownAliasOrAMissingOneAmongSeveralIsAnErrorListingTheConfiguredOnes() {
        Map<String, URI> two = new java.util.LinkedHashMap<>();
        two.put("coder", URI.create("http://127.0.0.1:1/"));
        two.put("stats", URI.create("http://127.0.0.1:2/"));
        try (AgentDirectory several = directory(two)) {
            assertThat(several.resolve("stats").alias()).isEqualTo("stats");
            assertThatThrownBy(() -> several.resolve("nope")).isInstanceOf(AgentUnavailable.class)
                    .hasMessageContaining("\"nope\"").hasMessageContaining("configured: coder, stats");
            assertThatThrownBy(() -> several.resolve(null)).isInstanceOf(AgentUnavailable.class)
                    .hasMessageContaining("coder, stats");
        }
    }

    private static AgentDirectory directory(Map<String, URI> agents) {
        return new AgentDirectory(agents, ClientConfig.defaults());
    }
}
