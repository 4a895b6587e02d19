package legate.cli;

import java.net.URI;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code legate agent}: the A2A server with Revisor, the stub agent, behind it. */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = {"Serve Revisor (text statistics, no model) over A2A v1.0 JSON-RPC.",
                "Each option can also be set by the environment variable named in brackets, or in a .env file."})
final class AgentCommand implements Callable<Integer> {
    @Option(names = "--host", descriptionKey = "HOST", defaultValue = "127.0.0.1",
            description = "Address to bind [HOST] (default: ${DEFAULT-VALUE}; nothing authenticates callers, so loopback).")
    String host;

    @Option(names = "--port", descriptionKey = "PORT", defaultValue = "41241",
            description = "Port to listen on, 0 for any free port [PORT] (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--public-url", descriptionKey = "PUBLIC_URL",
            description = "URL the Agent Card tells clients to dial [PUBLIC_URL] (default: http://HOST:PORT/).")
    String publicUrl;

    @Option(names = "--name", descriptionKey = "AGENT_NAME",
            description = "Name in the Agent Card [AGENT_NAME] (default: Revisor).")
    String name;

    @Option(names = "--step-delay-ms", descriptionKey = "STEP_DELAY_MS", defaultValue = "600",
            description = "Pause after each progress step, so a person can watch and a cancel can land [STEP_DELAY_MS] (default: ${DEFAULT-VALUE}).")
    long stepDelayMs;

    @Option(names = "--max-body-bytes", descriptionKey = "MAX_BODY_BYTES", defaultValue = "1048576",
            description = "Largest request body accepted [MAX_BODY_BYTES] (default: ${DEFAULT-VALUE}).")
    int maxBodyBytes;

    @Override
    public Integer call() throws Exception {
        if (stepDelayMs < 0 || maxBodyBytes < 1) {
            System.err.println("legate agent: STEP_DELAY_MS must be >= 0 and MAX_BODY_BYTES >= 1");
            return 2;
        }
        ServerSetup setup = ServerSetup.of(host, port, publicUrl);
        if (setup == null) {
            return 2;
        }
        ServerConfig config = new ServerConfig(host, port, setup.rpcPath(), maxBodyBytes, Duration.ofSeconds(30));
        AgentServer server = AgentServer.create(config,
                boundPort -> RevisorCard.build(name, setup.publicUrl(boundPort)),
                new RevisorExecutor(Duration.ofMillis(stepDelayMs)));
        int bound;
        try {
            bound = server.start();
        } catch (java.io.IOException e) {
            System.err.println("legate agent: cannot listen on " + host + ":" + port + ": " + e.getMessage());
            return 1;
        }
        String url = setup.publicUrl(bound);
        System.out.println("Revisor is listening on http://" + ServerSetup.hostForUrl(host) + ":" + bound
                + setup.rpcPath() + " (A2A 1.0, JSON-RPC)");
        System.out.println("Agent Card: " + URI.create(url).resolve("/.well-known/agent-card.json"));
        System.out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop();
            } catch (Exception ignored) {
                // shutting down anyway
            }
            stopped.countDown();
        }, "legate-shutdown"));
        server.join();
        stopped.await();
        return 0;
    }
}
