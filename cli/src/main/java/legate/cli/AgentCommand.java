package legate.cli;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.card.AgentCardHandler;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code legate agent}: the A2A server with Revisor, the stub agent, behind it. */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = {"Serve Revisor (text statistics, no model) over A2A v1.0 JSON-RPC.",
                "Each option can also be set by the environment variable named in brackets, or in a .env file."})
final class AgentCommand implements Callable<Integer> {
    // Keys and defaults are constants because fromSettings reads them too.
    static final String HOST = "HOST";
    static final String PORT = "PORT";
    static final String PUBLIC_URL = "PUBLIC_URL";
    static final String AGENT_NAME = "AGENT_NAME";
    static final String STEP_DELAY_MS = "STEP_DELAY_MS";
    static final String MAX_BODY_BYTES = "MAX_BODY_BYTES";
    private static final String DEFAULT_HOST = "127.0.0.1";
    private static final String DEFAULT_PORT = "41241";
    private static final String DEFAULT_STEP_DELAY_MS = "600";
    private static final String DEFAULT_MAX_BODY_BYTES = "1048576";

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
            description = "Name in the Agent Card [AGENT_NAME] (default: Revisor).")
    String name;

    @Option(names = "--step-delay-ms", descriptionKey = STEP_DELAY_MS, defaultValue = DEFAULT_STEP_DELAY_MS,
            description = "Pause after each progress step, so a person can watch and a cancel can land [STEP_DELAY_MS] (default: ${DEFAULT-VALUE}).")
    long stepDelayMs;

    @Option(names = "--max-body-bytes", descriptionKey = MAX_BODY_BYTES, defaultValue = DEFAULT_MAX_BODY_BYTES,
            description = "Largest request body accepted [MAX_BODY_BYTES] (default: ${DEFAULT-VALUE}).")
    int maxBodyBytes;

    @Option(names = "--start-cache-training", hidden = true,
            description = "Serve a scripted session to itself, then exit: bin/legate's run that records the start-up archive.")
    boolean startCacheTraining;

    /**
     * Prints a throwaway Agent Card on a second thread while the main one builds the Jetty server.
     * The two share no class, and the card is the larger part of what precedes the first answer
     * even with the start-up archive, because static initialisers run on every start: protobuf's
     * descriptors, the JSON printer, SHA-256 for the ETag, Jetty's date format. The real card then
     * finds them initialised.
     */
    static void prepareInBackground() {
        Thread.ofPlatform().daemon().name("legate-prepare").start(() -> {
            try {
                new AgentCardHandler(RevisorCard.build(null, "http://127.0.0.1/"), Instant.EPOCH);
            } catch (RuntimeException | Error e) {
                // The real start repeats every step and reports what fails; a second report here would mislead.
            }
        });
    }

    /**
     * The command picocli would build for a bare {@code legate agent}, read from the settings
     * alone; null when a number is not plain digits, so that picocli parses it and reports the
     * error. Building picocli's model of even this one command was about a third of the main
     * thread's work before the first card once the start-up archive was in place (picocli's
     * classes are too old a format to be archived), and a server under a supervisor is
     * configured by its environment, not its flags.
     */
    static AgentCommand fromSettings(Settings settings) {
        AgentCommand c = new AgentCommand();
        c.host = settings.get(HOST).orElse(DEFAULT_HOST);
        c.publicUrl = settings.get(PUBLIC_URL).orElse(null);
        c.name = settings.get(AGENT_NAME).orElse(null);
        String port = settings.get(PORT).orElse(DEFAULT_PORT);
        String stepDelay = settings.get(STEP_DELAY_MS).orElse(DEFAULT_STEP_DELAY_MS);
        String maxBody = settings.get(MAX_BODY_BYTES).orElse(DEFAULT_MAX_BODY_BYTES);
        if (!plainNumber(port, 9) || !plainNumber(stepDelay, 18) || !plainNumber(maxBody, 9)) {
            return null;
        }
        c.port = Integer.parseInt(port);
        c.stepDelayMs = Long.parseLong(stepDelay);
        c.maxBodyBytes = Integer.parseInt(maxBody);
        return c;
    }

    /** ASCII digits with an optional minus, few enough to fit the type: read alike by picocli and parseInt. */
    private static boolean plainNumber(String s, int maxDigits) {
        int start = s.startsWith("-") ? 1 : 0;
        if (s.length() == start || s.length() - start > maxDigits) {
            return false;
        }
        for (int i = start; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

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
        System.out.println("Revisor is listening on " + setup.listeningUrl(bound) + " (A2A 1.0, JSON-RPC)");
        System.out.println("Agent Card: " + URI.create(url).resolve("/.well-known/agent-card.json"));
        System.out.flush();
        if (startCacheTraining) {
            try {
                new StartupTraining(bound, setup.rpcPath()).run();
            } finally {
                server.stop();
            }
            return 0;
        }
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
