package legate.cli;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import legate.a2a.server.observe.Telemetry;
import legate.acp.log.BridgeLogs;
import legate.a2a.client.Binding;
import legate.a2a.client.ClientCredentials;
import legate.a2a.client.Credentials;
import legate.mcp.McpConfig;
import legate.mcp.McpEndpoint;
import legate.mcp.guard.BearerToken;
import legate.mcp.tool.ToolCalls;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code legate mcp}: any A2A agent as four MCP tools (a2a_ask, a2a_task, a2a_cancel, a2a_card) for a calling agent. */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = {"Publish A2A agents to a calling agent (Claude Code, any MCP client) as four MCP tools over "
                + "Streamable HTTP: a2a_ask, a2a_task, a2a_cancel and a2a_card.",
                "It is an A2A client only: the agents run elsewhere (legate agent, legate bridge, any A2A v1.0 agent).",
                "Every request needs the bearer token it prints (also written to .mcp-token); MCP_TOKEN pins it.",
                "Each option can also be set by the environment variable named in brackets, or in a .env file."})
final class McpCommand implements Callable<Integer> {
    @Mixin
    ClientTlsOptions clientTls = new ClientTlsOptions();

    @Mixin
    OAuthClientOptions oauth = new OAuthClientOptions();

    @Option(names = "--host", descriptionKey = "MCP_HOST", defaultValue = McpConfig.DEFAULT_HOST,
            description = "Address to bind [MCP_HOST] (default: ${DEFAULT-VALUE}). A wider bind needs MCP_ALLOWED_HOSTS.")
    String host;

    @Option(names = "--port", descriptionKey = "MCP_PORT", defaultValue = "" + McpConfig.DEFAULT_PORT,
            description = "Port to listen on, 0 for any free port [MCP_PORT] (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--a2a-url", descriptionKey = "A2A_URL", defaultValue = McpConfig.DEFAULT_A2A_URL,
            description = "Base URL of the agent to publish, under the alias 'default' [A2A_URL] (default: ${DEFAULT-VALUE}).")
    String a2aUrl;

    @Option(names = "--agents", descriptionKey = "A2A_AGENTS", paramLabel = "ALIAS=URL,...",
            description = "Several agents, by alias; replaces A2A_URL [A2A_AGENTS]. The tools' agent argument names one.")
    String agents;

    // No default: unset, the client dials the first interface of the card it speaks.
    @Option(names = "--binding", descriptionKey = "A2A_BINDING", paramLabel = "BINDING",
            description = "Dial every agent over this binding only: JSONRPC, HTTP+JSON (or REST) or GRPC [A2A_BINDING] "
                    + "(default: the first of the agent card's interfaces this client speaks).")
    String binding;

    @Option(names = "--name", descriptionKey = "AGENT_NAME",
            description = "The server's name in the MCP handshake and in the claude mcp add line [AGENT_NAME] "
                    + "(default: " + McpConfig.DEFAULT_SERVER_NAME + ").")
    String name;

    @Option(names = "--token", descriptionKey = "MCP_TOKEN",
            description = "Pin the bearer token across restarts [MCP_TOKEN] (default: a new random one each start).")
    String token;

    @Option(names = "--token-file", descriptionKey = "MCP_TOKEN_FILE", defaultValue = ".mcp-token",
            description = "Where the token in force is written, mode 600 [MCP_TOKEN_FILE] (default: ${DEFAULT-VALUE}).")
    Path tokenFile;

    @Option(names = "--allowed-hosts", descriptionKey = "MCP_ALLOWED_HOSTS", paramLabel = "HOST[:PORT],...",
            description = "Host header values accepted besides loopback names, for a non-loopback bind [MCP_ALLOWED_HOSTS].")
    String allowedHosts;

    @Option(names = "--heartbeat-ms", descriptionKey = "MCP_HEARTBEAT_MS", defaultValue = "25000",
            description = "A progress tick after this long without an upstream event [MCP_HEARTBEAT_MS] (default: ${DEFAULT-VALUE}).")
    long heartbeatMs;

    @Option(names = "--upstream-silence-ms", descriptionKey = "MCP_UPSTREAM_SILENCE_MS", defaultValue = "600000",
            description = "Give a2a_ask up after this long without a single upstream event [MCP_UPSTREAM_SILENCE_MS] "
                    + "(default: ${DEFAULT-VALUE}).")
    long silenceMs;

    @Option(names = "--discovery-timeout-ms", descriptionKey = "MCP_DISCOVERY_TIMEOUT_MS", defaultValue = "20000",
            description = "Bound on fetching an agent's card [MCP_DISCOVERY_TIMEOUT_MS] (default: ${DEFAULT-VALUE}).")
    long discoveryMs;

    @Option(names = "--request-timeout-ms", descriptionKey = "MCP_REQUEST_TIMEOUT_MS", defaultValue = "30000",
            description = "Bound on a2a_task, a2a_cancel and a2a_card [MCP_REQUEST_TIMEOUT_MS] (default: ${DEFAULT-VALUE}).")
    long requestMs;

    @Option(names = "--log-dir", descriptionKey = "LOG_DIR", defaultValue = "logs",
            description = "Where mcp.jsonl, the activity log, is written [LOG_DIR] (default: ${DEFAULT-VALUE}).")
    Path logDir;

    @Option(names = "--log-max-bytes", descriptionKey = "LOG_MAX_BYTES", defaultValue = "5242880",
            description = "Size at which the log is rotated [LOG_MAX_BYTES] (default: ${DEFAULT-VALUE}).")
    long logMaxBytes;

    @Option(names = "--log-max-files", descriptionKey = "LOG_MAX_FILES", defaultValue = "5",
            description = "Files kept, the live one included [LOG_MAX_FILES] (default: ${DEFAULT-VALUE}).")
    int logMaxFiles;

    // No default: /metrics is on the MCP port unless a port is given.
    @Option(names = "--metrics-port", descriptionKey = ServerOptions.METRICS_PORT,
            description = "Serve /metrics on this loopback port instead of the MCP port, 0 for any free port [METRICS_PORT].")
    Integer metricsPort;

    @Option(names = "--metrics-token", descriptionKey = ServerOptions.METRICS_TOKEN,
            description = "Bearer token /metrics asks for; without one /metrics is served on a loopback bind only [METRICS_TOKEN].")
    String metricsToken;
    /**
     * Each alias's credential for its agent: {@code A2A_TOKEN_<ALIAS>} and {@code A2A_API_KEY_<ALIAS>}
     * (see {@link McpConfig#credentialKey}); the one agent of A2A_URL, alias {@code default}, also
     * takes plain {@code A2A_TOKEN} and {@code A2A_API_KEY}. Read from the environment and .env.
     */
    static Map<String, Credentials> credentials(Map<String, URI> published, Settings settings) {
        return credentials(published, settings, false, null);
    }

    /**
     * @param certificate whether a client certificate is presented (A2A_CLIENT_CERT), to every agent that asks for one
     * @param oauthClient OAuth 2 client credentials (A2A_CLIENT_ID ...) for every agent whose card asks for a token
     *     from their authorization server; null for none
     */
    static Map<String, Credentials> credentials(Map<String, URI> published, Settings settings, boolean certificate,
                                                ClientCredentials oauthClient) {
        Map<String, Credentials> out = new LinkedHashMap<>();
        for (String alias : published.keySet()) {
            String token = settings.get(McpConfig.credentialKey("A2A_TOKEN", alias)).orElse(null);
            String key = settings.get(McpConfig.credentialKey("A2A_API_KEY", alias)).orElse(null);
            if (alias.equals(McpConfig.DEFAULT_ALIAS)) {
                token = token != null ? token : settings.get("A2A_TOKEN").orElse(null);
                key = key != null ? key : settings.get("A2A_API_KEY").orElse(null);
            }
            Credentials c = new Credentials(token, key, certificate, oauthClient);
            if (!c.isEmpty()) {
                out.put(alias, c);
            }
        }
        return out;
    }

    @Override
    public Integer call() throws Exception {
        // The MCP SDK logs every session at INFO; its warnings and errors are what an operator needs.
        if (System.getProperty("io.modelcontextprotocol.LEVEL") == null) {
            System.setProperty("io.modelcontextprotocol.LEVEL", "WARN");
        }
        McpConfig config;
        Telemetry telemetry;
        try {
            telemetry = new Telemetry(metricsPort == null ? Telemetry.ON_A2A_PORT : metricsPort, metricsToken,
                    ServerOptions.tracing("legate-mcp"));
            if (logMaxBytes < 1 || logMaxFiles < 1) {
                throw new IllegalArgumentException("LOG_MAX_BYTES and LOG_MAX_FILES must be at least 1");
            }
            if (heartbeatMs < 1 || silenceMs < 1 || discoveryMs < 1 || requestMs < 1) {
                throw new IllegalArgumentException("MCP_HEARTBEAT_MS, MCP_UPSTREAM_SILENCE_MS, MCP_DISCOVERY_TIMEOUT_MS "
                        + "and MCP_REQUEST_TIMEOUT_MS must be at least 1");
            }
            Map<String, URI> published = McpConfig.agents(agents, a2aUrl);
            ClientTls tls = clientTls.tls();
            BearerToken bearer = token == null ? BearerToken.mint(new SecureRandom()) : new BearerToken(token.strip());
            config = new McpConfig(host, port, name, bearer, McpConfig.allowedHosts(allowedHosts), published,
                    Duration.ofMillis(heartbeatMs), Duration.ofMillis(silenceMs), Duration.ofMillis(discoveryMs),
                    Duration.ofMillis(requestMs))
                    .withCredentials(credentials(published, Settings.load(Path.of(""), System.getenv()),
                            tls.presentsCertificate(), oauth.credentials()))
                    .withTrust(tls.trust())
                    .withBindings(binding == null || binding.isBlank() ? List.of() : List.of(Binding.named(binding)));
        } catch (IllegalArgumentException e) {
            System.err.println("legate mcp: " + e.getMessage());
            return 2;
        }
        if (!config.bindsLoopback() && config.allowedHosts().isEmpty()) {
            System.err.println("legate mcp: warning: " + host + " is not a loopback address and MCP_ALLOWED_HOSTS is not "
                    + "set, so only requests that name 127.0.0.1, localhost or [::1] as Host are answered; list the "
                    + "names callers use in MCP_ALLOWED_HOSTS");
        }
        McpEndpoint endpoint = McpEndpoint.create(config, Clock.systemUTC(), telemetry, BridgeLogs.single(logDir,
                ToolCalls.LOG, logMaxBytes, logMaxFiles, Clock.systemUTC(), System.err));
        try {
            endpoint.start();
        } catch (IOException e) {
            System.err.println("legate mcp: cannot listen on " + host + ":" + port + ": " + e.getMessage());
            endpoint.close();
            return 1;
        }
        try {
            config.token().writeTo(tokenFile);
        } catch (IOException e) {
            System.err.println("legate mcp: cannot write the token to " + tokenFile + ": " + e.getMessage());
            endpoint.close();
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean begun = new AtomicBoolean();
        Runnable stop = () -> {
            if (begun.compareAndSet(false, true)) {
                endpoint.close();
                telemetry.tracing().close();
                stopped.countDown();
            }
        };
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "legate-mcp-shutdown"));
        // DEFECT (issue 30): left to the JVM, SIGTERM exited 143, a failure to systemd after legate service
        // stop. Armed before the start-up lines: a supervisor may stop it as soon as it reads them.
        ServerStart.onSigterm(stop);
        print(config, endpoint.url());
        MetricsNotice.print("legate mcp", endpoint.metricsAccess(),
                endpoint.metricsPort() == endpoint.port() ? host : "127.0.0.1", endpoint.metricsPort());
        System.out.flush();
        endpoint.join();
        stopped.await();
        return 0;
    }

    private void print(McpConfig config, String url) {
        String agentList = config.agents().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(", "));
        System.out.println("legate mcp is listening on " + url + " (MCP Streamable HTTP) for A2A agents: " + agentList);
        System.out.println("Bearer token (also in " + tokenFile + ", mode 600): " + config.token().value());
        System.out.println("Connect Claude Code with:");
        System.out.println("  claude mcp add --transport http " + shellName(config.serverName()) + " " + url
                + " --header \"Authorization: Bearer " + config.token().value() + "\"");
        System.out.flush();
    }

    /** The server name as one shell word: anything but letters, digits, '.', '_' and '-' becomes '-'. */
    private static String shellName(String serverName) {
        String safe = serverName.replaceAll("[^A-Za-z0-9._-]", "-");
        return safe.isEmpty() ? McpConfig.DEFAULT_SERVER_NAME : safe;
    }
}
