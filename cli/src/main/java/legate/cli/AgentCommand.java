package legate.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.Stream;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.card.AgentCardHandler;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.task.InstanceGroup;
import legate.a2a.server.task.TaskStore;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.tck.TckCard;
import legate.tck.TckExecutor;
import lf.a2a.v1.AgentCard;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code legate agent}: the A2A server with Revisor, the stub agent, behind it (or the TCK's system under test). */
@Command(name = "agent", mixinStandardHelpOptions = true,
        description = {"Serve Revisor (text statistics, no model) over A2A v1.0, or with --agent tck the official"
                + " A2A TCK's system under test.",
                "Each option can also be set by the environment variable named in brackets, or in a .env file."})
final class AgentCommand implements Callable<Integer> {
    static final String STEP_DELAY_MS = "STEP_DELAY_MS";
    private static final String DEFAULT_STEP_DELAY_MS = "600";
    // Not AGENT: scripts/raw.sh reads AGENT as the URL of the agent it calls, and one shell may set both.
    static final String AGENT = "AGENT_KIND";
    private static final String DEFAULT_AGENT = "revisor";
    static final String TCK_STREAMING_TIMEOUT = "TCK_STREAMING_TIMEOUT";
    private static final String DEFAULT_TCK_STREAMING_TIMEOUT = "2.0";

    @Mixin
    ServerOptions server = new ServerOptions("agent", SecurityOptions.AGENT_MAX_TASKS_PER_PRINCIPAL);

    @Mixin
    EdgeOptions edge = new EdgeOptions();

    @Mixin
    PushOptions push = new PushOptions();

    // Null when the command was read from the settings alone (fromSettings), without picocli.
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--step-delay-ms", descriptionKey = STEP_DELAY_MS, defaultValue = DEFAULT_STEP_DELAY_MS,
            description = "Pause after each progress step, so a person can watch and a cancel can land [STEP_DELAY_MS] (default: ${DEFAULT-VALUE}).")
    long stepDelayMs;

    @Option(names = "--agent", descriptionKey = AGENT, defaultValue = DEFAULT_AGENT,
            description = "The agent behind the server: revisor (text statistics) or tck (the official A2A TCK's"
                    + " scripted system under test) [AGENT_KIND] (default: ${DEFAULT-VALUE}).")
    String agent;

    @Option(names = "--tck-streaming-timeout", descriptionKey = TCK_STREAMING_TIMEOUT,
            defaultValue = DEFAULT_TCK_STREAMING_TIMEOUT,
            description = "With --agent tck: the TCK's TCK_STREAMING_TIMEOUT in seconds; its long-running task"
                    + " lasts twice this [TCK_STREAMING_TIMEOUT] (default: ${DEFAULT-VALUE}).")
    String tckStreamingTimeout;

    /** bin/legate's flag for the training run; {@link Legate#main} reads no settings when it is given. */
    static final String TRAINING_FLAG = "--start-cache-training";

    @Option(names = TRAINING_FLAG, hidden = true,
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
        c.server.host = settings.get(ServerOptions.HOST).orElse(ServerOptions.DEFAULT_HOST);
        c.server.publicUrl = settings.get(ServerOptions.PUBLIC_URL).orElse(null);
        c.server.name = settings.get(ServerOptions.AGENT_NAME).orElse(null);
        c.server.bindings = settings.get(ServerOptions.A2A_BINDINGS).orElse(null);
        c.agent = settings.get(AGENT).orElse(DEFAULT_AGENT);
        c.tckStreamingTimeout = settings.get(TCK_STREAMING_TIMEOUT).orElse(DEFAULT_TCK_STREAMING_TIMEOUT);
        c.server.grpcPublicAddress = settings.get(ServerOptions.GRPC_PUBLIC_ADDRESS).orElse(null);
        String port = settings.get(ServerOptions.PORT).orElse(ServerOptions.DEFAULT_PORT);
        String grpcPort = settings.get(ServerOptions.GRPC_PORT).orElse(ServerOptions.DEFAULT_GRPC_PORT);
        if (!plainNumber(grpcPort, 9)) {
            return null;
        }
        c.server.grpcPort = Integer.parseInt(grpcPort);
        String stepDelay = settings.get(STEP_DELAY_MS).orElse(DEFAULT_STEP_DELAY_MS);
        String maxBody = settings.get(ServerOptions.MAX_BODY_BYTES).orElse(ServerOptions.DEFAULT_MAX_BODY_BYTES);
        String maxTasks = settings.get(ServerOptions.MAX_TASKS).orElse(ServerOptions.DEFAULT_MAX_TASKS);
        String grace = settings.get(ServerOptions.SHUTDOWN_GRACE_MS).orElse(ServerOptions.DEFAULT_SHUTDOWN_GRACE_MS);
        if (!plainNumber(port, 9) || !plainNumber(stepDelay, 18) || !plainNumber(maxBody, 9) || !plainNumber(maxTasks, 9)
                || !plainNumber(grace, 18)) {
            return null;
        }
        c.server.port = Integer.parseInt(port);
        c.stepDelayMs = Long.parseLong(stepDelay);
        c.server.maxBodyBytes = Integer.parseInt(maxBody);
        c.server.maxTasks = Integer.parseInt(maxTasks);
        c.server.shutdownGraceMs = Long.parseLong(grace);
        String metricsPort = settings.get(ServerOptions.METRICS_PORT).orElse(null);
        if (metricsPort != null && !plainNumber(metricsPort, 9)) {
            return null;
        }
        c.server.metricsPort = metricsPort == null ? null : Integer.valueOf(metricsPort);
        c.server.metricsToken = settings.get(ServerOptions.METRICS_TOKEN).orElse(null);
        c.server.store = settings.get(ServerOptions.TASK_STORE).orElse(ServerOptions.DEFAULT_TASK_STORE);
        c.server.databaseUrl = settings.get(ServerOptions.DATABASE_URL).orElse(null);
        c.server.instanceUrl = settings.get(ServerOptions.INSTANCE_URL).orElse(null);
        c.server.instanceId = settings.get(ServerOptions.INSTANCE_ID).orElse(null);
        String leaseTtl = settings.get(ServerOptions.LEASE_TTL_MS).orElse(ServerOptions.DEFAULT_LEASE_TTL_MS);
        String heartbeat = settings.get(ServerOptions.LEASE_HEARTBEAT_MS).orElse(ServerOptions.DEFAULT_LEASE_HEARTBEAT_MS);
        if (!plainNumber(leaseTtl, 18) || !plainNumber(heartbeat, 18)) {
            return null;
        }
        c.server.leaseTtlMs = Long.parseLong(leaseTtl);
        c.server.leaseHeartbeatMs = Long.parseLong(heartbeat);
        try {
            c.server.taskRetention = Durations.parse(
                    settings.get(ServerOptions.TASK_RETENTION).orElse(ServerOptions.DEFAULT_TASK_RETENTION));
            c.server.dataDir = settings.get(ServerOptions.DATA_DIR).map(Path::of).orElse(null);
            if (!plainNumber(settings.get(SecurityOptions.MAX_TASKS_PER_PRINCIPAL)
                    .orElse(String.valueOf(SecurityOptions.AGENT_MAX_TASKS_PER_PRINCIPAL)), 9)
                    || !plainNumber(settings.get(SecurityOptions.MAX_STREAMS_PER_PRINCIPAL)
                    .orElse(SecurityOptions.DEFAULT_MAX_STREAMS_PER_PRINCIPAL), 9)) {
                return null;
            }
            c.server.security.readFrom(settings);
            c.edge = EdgeOptions.fromSettings(settings);
            c.push = PushOptions.fromSettings(settings);
            if (c.push == null) {
                return null;
            }
        } catch (IllegalArgumentException e) {
            // a duration picocli reports better, or a path it refuses (InvalidPathException)
            return null;
        }
        return c;
    }

    /** The agent {@code --agent} names: what the start line calls it, its card and its executor. */
    record Agent(String title, BiFunction<String, String, AgentCard> card, AgentExecutor executor) {
        /**
         * @throws IllegalArgumentException naming the problem: no such agent, or the TCK agent's
         *     timeout is not a number of seconds
         */
        static Agent named(String name, String tckStreamingTimeout, Duration stepDelay) {
            return switch (name.strip().toLowerCase(Locale.ROOT)) {
                case "revisor" -> new Agent("Revisor", RevisorCard::build, new RevisorExecutor(stepDelay));
                case "tck" -> new Agent("The TCK agent", TckCard::build,
                        new TckExecutor(TckExecutor.streamingTimeout(tckStreamingTimeout)));
                default -> throw new IllegalArgumentException("AGENT_KIND (--agent) is revisor or tck, not \"" + name + "\"");
            };
        }
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
        if (stepDelayMs < 0 || server.maxBodyBytes < 1 || server.maxTasks < 1 || server.shutdownGraceMs < 0) {
            System.err.println("legate agent: STEP_DELAY_MS and SHUTDOWN_GRACE_MS must be >= 0, MAX_BODY_BYTES and "
                    + "MAX_TASKS >= 1");
            return 2;
        }
        // The training run's scripted session checks Revisor's answers, whatever AGENT the .env names.
        Agent chosen;
        try {
            chosen = Agent.named(startCacheTraining ? DEFAULT_AGENT : agent, tckStreamingTimeout,
                    Duration.ofMillis(stepDelayMs));
        } catch (IllegalArgumentException e) {
            System.err.println("legate agent: " + e.getMessage());
            return 2;
        }
        if (!startCacheTraining) {
            try {
                return serve(chosen);
            } catch (ServerStart.Refused e) {
                return e.report("legate agent");
            }
        }
        // DEFECT (issue 30): the training run opened the store the user's DATA_DIR, TASK_STORE or
        // DATABASE_URL named and left its ~250 scripted tasks there, once per jar and JDK.
        Path scratch = Files.createTempDirectory("legate-training");
        try {
            server.forTraining(scratch);
            return serve(chosen);
        } catch (ServerStart.Refused e) {
            return e.report("legate agent");
        } finally {
            deleteScratch(scratch);
        }
    }

    /** The training run's store folder: legate.db, its journal files and native/sqlite-VERSION/ (NativeLibrary). */
    private static void deleteScratch(Path scratch) {
        try (Stream<Path> files = Files.walk(scratch, 4)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        } catch (IOException | UncheckedIOException e) {
            System.err.println("legate agent: cannot delete the training run's " + scratch + ": " + e.getMessage());
        }
    }

    private int serve(Agent chosen) throws Exception {
        ServerStart.Prepared prepared = ServerStart.prepare(server, edge, push, "legate-agent");
        if (startCacheTraining) {
            // DEFECT: the scripted session speaks plain http to itself; with TLS on it failed and the
            // start-up archive was never recorded. The session only needs the server's classes, and
            // it is anonymous: the caller's security keys would only refuse it.
            prepared = prepared.anonymousOverPlainHttp();
        }
        ServerSetup setup = prepared.setup();
        Supplier<CommandLine> blame = () -> spec != null ? spec.commandLine() : new CommandLine(this);
        TaskStore store = ServerStart.openStore(server, blame);
        InstanceGroup group = ServerStart.group(store, server, setup, blame);
        AgentServer a2a = AgentServer.create(prepared.served(),
                boundPort -> chosen.card().apply(server.name, setup.publicUrl(boundPort)),
                chosen.executor(), store, Clock.systemUTC(), prepared.telemetry(), new ServerMetrics(), group);
        int bound = ServerStart.listen(server, a2a::start, a2a::stop);
        // The training run stops its server itself, when its scripted session is done.
        ServerStart.Stopping stopping = startCacheTraining ? null
                : ServerStart.stopping(server, a2a::drain, prepared.telemetry(), "legate agent");
        ServerOptions.printStarted(chosen.title(), setup, bound, prepared.config().bindings(), a2a);
        MetricsNotice.print("legate agent", a2a, server.host);
        System.out.flush();
        if (startCacheTraining) {
            try {
                new StartupTraining(bound, setup.rpcPath()).run();
            } finally {
                a2a.stop();
            }
            return 0;
        }
        return stopping.serve(a2a::join);
    }
}
