package legate.mcp.upstream;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import legate.a2a.client.ClientConfig;
import legate.a2a.client.Credentials;

/**
 * The agents this endpoint publishes, by alias, and the rule for the tools' {@code agent}
 * argument: it may be left out while exactly one agent is configured; an alias nobody configured
 * is an error that lists the ones that are.
 */
public final class AgentDirectory implements AutoCloseable {
    private final Map<String, AgentLink> links = new LinkedHashMap<>();

    public AgentDirectory(Map<String, URI> agents, ClientConfig clientConfig) {
        this(agents, clientConfig, Map.of());
    }

    /** @param credentials each alias's credential, sent to that agent only (an alias not named sends none) */
    public AgentDirectory(Map<String, URI> agents, ClientConfig clientConfig, Map<String, Credentials> credentials) {
        agents.forEach((alias, url) -> links.put(alias, new AgentLink(alias, url,
                clientConfig.withCredentials(credentials.getOrDefault(alias, Credentials.NONE)))));
    }

    public List<String> aliases() {
        return List.copyOf(links.keySet());
    }

    /**
     * The agent a tool call names.
     *
     * @param alias the {@code agent} argument, null when left out
     * @throws AgentUnavailable for an unknown alias, or a missing one while several agents are configured
     */
    public AgentLink resolve(String alias) {
        if (alias == null) {
            if (links.size() == 1) {
                return links.values().iterator().next();
            }
            throw new AgentUnavailable("several agents are configured, so name one with the argument agent: " + listed());
        }
        AgentLink link = links.get(alias);
        if (link == null) {
            throw new AgentUnavailable("no agent is configured as \"" + alias + "\"; configured: " + listed());
        }
        return link;
    }

    /** The argument's description: which aliases exist and whether it may be left out. */
    public String describeArgument() {
        return links.size() == 1
                ? "Which agent; may be omitted, since only " + listed() + " is configured."
                : "Which agent: one of " + listed() + ". Required, since several are configured.";
    }

    private String listed() {
        return String.join(", ", links.keySet());
    }

    @Override
    public void close() {
        links.values().forEach(AgentLink::close);
    }
}
