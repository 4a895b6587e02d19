package legate.cli;

import java.time.Duration;
import legate.a2a.server.ServerConfig;
import picocli.CommandLine.Option;

/**
 * The options of the A2A server that {@code legate agent} and {@code legate bridge} both run, as one
 * picocli mixin: the same flags, configuration keys and defaults in both, since a client must not be
 * able to tell from the wire which of the two it reached.
 */
final class ServerOptions {
    // Keys and defaults are constants because AgentCommand.fromSettings reads them too.
    static final String HOST = "HOST";
    static final String PORT = "PORT";
    static final String PUBLIC_URL = "PUBLIC_URL";
    static final String AGENT_NAME = "AGENT_NAME";
    static final String MAX_BODY_BYTES = "MAX_BODY_BYTES";
    static final String DEFAULT_HOST = "127.0.0.1";
    static final String DEFAULT_PORT = "41241";
    static final String DEFAULT_MAX_BODY_BYTES = "1048576";
    /** How long CancelTask waits for the agent to reach CANCELED before it answers -32002. */
    private static final Duration CANCEL_WAIT = Duration.ofSeconds(30);

    @Option(names = "--host", descriptionKey = HOST, defaultValue = DEFAULT_HOST,
            description = "Address to bind [HOST] (default: ${DEFAULT-VALUE}; nothing authenticates callers, so loopback).")
    String host;

    @Option(names = "--port", descriptionKey = PORT, defaultValue = DEFAULT_PORT,
            description = "Port to listen on, 0 for any free port [PORT] (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--public-url", descriptionKey = PUBLIC_URL,
            description = "URL the Agent Card tells clients to dial [PUBLIC_URL] (default: http://HOST:PORT/).")
    String publicUrl;

    @Option(names = "--name", descriptionKey = AGENT_NAME,
            description = "Name in the Agent Card, replacing the agent's own outright [AGENT_NAME] (default: the agent's own).")
    String name;

    @Option(names = "--max-body-bytes", descriptionKey = MAX_BODY_BYTES, defaultValue = DEFAULT_MAX_BODY_BYTES,
            description = "Largest request body accepted [MAX_BODY_BYTES] (default: ${DEFAULT-VALUE}).")
    int maxBodyBytes;

    /** The public URL and the JSON-RPC path; null (after printing why) when PUBLIC_URL is not an http(s) URL. */
    ServerSetup setup() {
        return ServerSetup.of(host, port, publicUrl);
    }

    /** How the server listens, answering JSON-RPC on {@code rpcPath}. */
    ServerConfig config(String rpcPath) {
        return new ServerConfig(host, port, rpcPath, maxBodyBytes, CANCEL_WAIT);
    }
}
