package legate.mcp;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import legate.a2a.client.Binding;
import legate.a2a.client.ClientTrust;
import legate.a2a.client.Credentials;
import legate.mcp.guard.BearerToken;
import legate.mcp.guard.HostGuard;

/**
 * How {@code legate mcp} listens and which A2A agents it publishes.
 *
 * @param host the address to bind; loopback unless told otherwise
 * @param port the port; 0 picks a free one ({@link McpEndpoint#start()} returns it)
 * @param serverName what the MCP handshake names this server ({@code serverInfo.name})
 * @param token the bearer token every request must carry
 * @param allowedHosts Host header values accepted on a non-loopback bind (a name, or name:port);
 *     ignored on a loopback bind, where only loopback names are accepted
 * @param agents alias to base URL of each agent, in the order configured
 * @param heartbeat a progress tick is sent when upstream has been quiet this long
 * @param upstreamSilence a turn is given up after this long without a single upstream event
 * @param discoveryTimeout bound on fetching an agent's card
 * @param requestTimeout bound on a2a_task, a2a_cancel and a2a_card
 * @param credentials each alias's credential, sent to that agent only
 * @param bindings the A2A bindings the tools may dial, in the agent card's order (A2A_BINDING
 *     names one; null or empty: every binding the client speaks)
 * @param trust how https agents are dialled: the authorities trusted beside the JDK's and the
 *     client certificate presented (null: the JDK's authorities, no certificate)
 */
public record McpConfig(String host, int port, String serverName, BearerToken token, List<String> allowedHosts,
                        Map<String, URI> agents, Duration heartbeat, Duration upstreamSilence,
                        Duration discoveryTimeout, Duration requestTimeout, Map<String, Credentials> credentials,
                        List<Binding> bindings, ClientTrust trust) {
    public static final String DEFAULT_HOST = "127.0.0.1";
    public static final int DEFAULT_PORT = 41243;
    public static final String DEFAULT_SERVER_NAME = "legate-mcp";
    public static final String DEFAULT_A2A_URL = "http://localhost:41241/";
    /** The alias of the one agent A2A_URL names when A2A_AGENTS is not set. */
    public static final String DEFAULT_ALIAS = "default";
    /** Where the MCP Streamable HTTP endpoint answers. */
    public static final String PATH = "/mcp";

    public McpConfig {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("MCP_HOST must name an address to bind");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("MCP_PORT must be 0..65535, got " + port);
        }
        serverName = serverName == null || serverName.isBlank() ? DEFAULT_SERVER_NAME : serverName.strip();
        if (token == null) {
            throw new IllegalArgumentException("a bearer token is required");
        }
        allowedHosts = List.copyOf(allowedHosts);
        if (agents == null || agents.isEmpty()) {
            throw new IllegalArgumentException("at least one agent must be configured (A2A_URL or A2A_AGENTS)");
        }
        agents = Collections.unmodifiableMap(new LinkedHashMap<>(agents));
        requirePositive(heartbeat, "MCP_HEARTBEAT_MS");
        requirePositive(upstreamSilence, "MCP_UPSTREAM_SILENCE_MS");
        requirePositive(discoveryTimeout, "MCP_DISCOVERY_TIMEOUT_MS");
        requirePositive(requestTimeout, "MCP_REQUEST_TIMEOUT_MS");
        credentials = credentials == null ? Map.of() : Map.copyOf(credentials);
        bindings = bindings == null || bindings.isEmpty() ? Binding.implemented() : List.copyOf(bindings);
        trust = trust == null ? ClientTrust.DEFAULTS : trust;
    }

    public McpConfig(String host, int port, String serverName, BearerToken token, List<String> allowedHosts,
                     Map<String, URI> agents, Duration heartbeat, Duration upstreamSilence,
                     Duration discoveryTimeout, Duration requestTimeout, Map<String, Credentials> credentials) {
        this(host, port, serverName, token, allowedHosts, agents, heartbeat, upstreamSilence, discoveryTimeout,
                requestTimeout, credentials, null, null);
    }

    /** A configuration that sends no credential to any agent. */
    public McpConfig(String host, int port, String serverName, BearerToken token, List<String> allowedHosts,
                     Map<String, URI> agents, Duration heartbeat, Duration upstreamSilence,
                     Duration discoveryTimeout, Duration requestTimeout) {
        this(host, port, serverName, token, allowedHosts, agents, heartbeat, upstreamSilence, discoveryTimeout,
                requestTimeout, Map.of());
    }

    /**
     * The key that holds an alias's credential: {@code A2A_TOKEN_<ALIAS>} or {@code A2A_API_KEY_<ALIAS>},
     * the alias in upper case with every character but a letter or digit written {@code _}.
     */
    public static String credentialKey(String prefix, String alias) {
        StringBuilder key = new StringBuilder(prefix).append('_');
        for (char c : alias.toCharArray()) {
            key.append(Character.isLetterOrDigit(c) && c < 128 ? Character.toUpperCase(c) : '_');
        }
        return key.toString();
    }

    /** The same, sending each alias's credential to that agent only, as its card asks. */
    public McpConfig withCredentials(Map<String, Credentials> byAlias) {
        return new McpConfig(host, port, serverName, token, allowedHosts, agents, heartbeat, upstreamSilence,
                discoveryTimeout, requestTimeout, byAlias, bindings, trust);
    }

    /** The same, dialling only {@code allowed}; A2A_BINDING forces one binding. */
    public McpConfig withBindings(List<Binding> allowed) {
        return new McpConfig(host, port, serverName, token, allowedHosts, agents, heartbeat, upstreamSilence,
                discoveryTimeout, requestTimeout, credentials, allowed, trust);
    }

    /** The same, dialling https agents as {@code how} says: a private CA (A2A_CA_CERT), a client certificate. */
    public McpConfig withTrust(ClientTrust how) {
        return new McpConfig(host, port, serverName, token, allowedHosts, agents, heartbeat, upstreamSilence,
                discoveryTimeout, requestTimeout, credentials, bindings, how);
    }
    /**
     * Whether the bind reaches only this machine. A wider bind without {@link #allowedHosts()}
     * answers only to loopback Host names, which remote callers cannot send.
     */
    public boolean bindsLoopback() {
        return HostGuard.isLoopback(host);
    }

    /** Loopback on {@code port} with the default timers, for one agent or several. */
    public static McpConfig loopback(int port, BearerToken token, Map<String, URI> agents) {
        return new McpConfig(DEFAULT_HOST, port, null, token, List.of(), agents, Duration.ofSeconds(25),
                Duration.ofMinutes(10), Duration.ofSeconds(20), Duration.ofSeconds(30));
    }

    public McpConfig withTimers(Duration heartbeat, Duration upstreamSilence) {
        return new McpConfig(host, port, serverName, token, allowedHosts, agents, heartbeat, upstreamSilence,
                discoveryTimeout, requestTimeout);
    }

    /**
     * The agents to publish: A2A_AGENTS ({@code alias=url,alias=url}) when it is set, otherwise the
     * single A2A_URL under the alias {@value #DEFAULT_ALIAS}.
     *
     * @throws IllegalArgumentException naming the entry that is not {@code alias=http(s)-url}, or a repeated alias
     */
    public static Map<String, URI> agents(String a2aAgents, String a2aUrl) {
        Map<String, URI> out = new LinkedHashMap<>();
        if (a2aAgents == null || a2aAgents.isBlank()) {
            out.put(DEFAULT_ALIAS, httpUrl(a2aUrl == null || a2aUrl.isBlank() ? DEFAULT_A2A_URL : a2aUrl, "A2A_URL"));
            return out;
        }
        for (String entry : a2aAgents.split(",")) {
            if (entry.isBlank()) {
                continue;
            }
            int eq = entry.indexOf('=');
            String alias = eq < 0 ? "" : entry.substring(0, eq).strip();
            if (!alias.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
                throw new IllegalArgumentException("A2A_AGENTS entries are alias=url with an alias of letters, digits, "
                        + "'.', '_' or '-'; got \"" + entry.strip() + "\"");
            }
            if (out.put(alias, httpUrl(entry.substring(eq + 1), "A2A_AGENTS entry " + alias)) != null) {
                throw new IllegalArgumentException("A2A_AGENTS names the alias " + alias + " twice");
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("A2A_AGENTS lists no agent");
        }
        return out;
    }

    /** MCP_ALLOWED_HOSTS: comma-separated Host header values, blanks dropped. */
    public static List<String> allowedHosts(String list) {
        if (list == null || list.isBlank()) {
            return List.of();
        }
        return java.util.Arrays.stream(list.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    private static URI httpUrl(String text, String what) {
        try {
            URI uri = new URI(text.strip());
            if (uri.getScheme() == null || !uri.getScheme().matches("https?") || uri.getHost() == null) {
                throw new IllegalArgumentException(what + " must be an absolute http(s) URL, got " + text.strip());
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(what + " is not a URL: " + e.getMessage());
        }
    }

    private static void requirePositive(Duration d, String name) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration");
        }
    }
}
