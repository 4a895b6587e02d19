package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import legate.a2a.client.Credentials;
import org.junit.jupiter.api.Test;

/**
 * {@code legate mcp}'s credentials per agent alias (README "Security", clients): each alias reads
 * A2A_TOKEN_ALIAS and A2A_API_KEY_ALIAS, the one agent of A2A_URL also plain A2A_TOKEN, and no
 * alias gets another's credential.
 */
class McpCredentialsTest {
    @Test
    void eachAliasGetsItsOwnCredentialAndNoOther() {
        Map<String, URI> agents = new LinkedHashMap<>();
        agents.put("coder", URI.create("http://127.0.0.1:41241/"));
        agents.put("stats-2", URI.create("http://127.0.0.1:41251/"));
        agents.put("open", URI.create("http://127.0.0.1:41261/"));
        Settings settings = new Settings(Map.of("A2A_TOKEN_CODER", "t-coder", "A2A_API_KEY_STATS_2", "k-stats",
                "A2A_TOKEN", "t-plain"), Map.of());
        assertThat(McpCommand.credentials(agents, settings)).containsExactly(
                Map.entry("coder", new Credentials("t-coder", null)),
                Map.entry("stats-2", new Credentials(null, "k-stats")));
    }

    // A client certificate (A2A_CLIENT_CERT) is presented in every TLS handshake that asks for one,
    // so it is part of every alias's credentials, beside the alias's own token or key.
    @Test
    void aClientCertificateIsEveryAliasesToo() {
        Map<String, URI> agents = new LinkedHashMap<>();
        agents.put("coder", URI.create("https://127.0.0.1:41241/"));
        agents.put("open", URI.create("https://127.0.0.1:41261/"));
        Settings settings = new Settings(Map.of("A2A_TOKEN_CODER", "t-coder"), Map.of());
        assertThat(McpCommand.credentials(agents, settings, true, null)).containsExactly(
                Map.entry("coder", new Credentials("t-coder", null, true)),
                Map.entry("open", new Credentials(null, null, true)));
    }

    @Test
    void theDefaultAliasTakesThePlainKeys() {
        Map<String, URI> agents = Map.of("default", URI.create("http://127.0.0.1:41241/"));
        Settings settings = new Settings(Map.of("A2A_TOKEN", "t-plain", "A2A_API_KEY", "k-plain"), Map.of());
        assertThat(McpCommand.credentials(agents, settings)).containsExactly(
                Map.entry("default", new Credentials("t-plain", "k-plain")));
    }
}
