package legate.cli;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ProtocolBinding;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerSecurity;
import legate.a2a.server.observe.Telemetry;
import legate.wire.trace.Tracing;
import lf.a2a.v1.AgentInterface;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
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
    static final String TASK_STORE = "TASK_STORE";
    static final String DATA_DIR = "DATA_DIR";
    static final String DATABASE_URL = "DATABASE_URL";
    static final String TASK_RETENTION = "TASK_RETENTION";
    static final String MAX_TASKS = "MAX_TASKS";
    static final String SHUTDOWN_GRACE_MS = "SHUTDOWN_GRACE_MS";
    static final String DEFAULT_SHUTDOWN_GRACE_MS = "10000";
    static final String METRICS_PORT = "METRICS_PORT";
    static final String METRICS_TOKEN = "METRICS_TOKEN";
    static final String A2A_BINDINGS = "A2A_BINDINGS";
    static final String GRPC_PORT = "GRPC_PORT";
    static final String DEFAULT_GRPC_PORT = "0";
    static final String GRPC_PUBLIC_ADDRESS = "GRPC_PUBLIC_ADDRESS";

    static final String INSTANCE_URL = "INSTANCE_URL";
    static final String INSTANCE_ID = "INSTANCE_ID";
    static final String LEASE_TTL_MS = "LEASE_TTL_MS";
    static final String LEASE_HEARTBEAT_MS = "LEASE_HEARTBEAT_MS";
    static final String DEFAULT_LEASE_TTL_MS = "10000";
    static final String DEFAULT_LEASE_HEARTBEAT_MS = "2000";
    // The README documents sqlite as the default: it becomes the default here once its store is built.
    static final String DEFAULT_TASK_STORE = TaskStores.SQLITE;
    /** The parent of each command's default DATA_DIR: data/agent, data/bridge. */
    static final String DATA_ROOT = "data";
    static final String DEFAULT_TASK_RETENTION = "7d";
    static final String DEFAULT_MAX_TASKS = "100000";
    /** How long CancelTask waits for the agent to reach CANCELED before it answers -32002. */
    private static final Duration CANCEL_WAIT = Duration.ofSeconds(30);

    @Option(names = "--host", descriptionKey = HOST, defaultValue = DEFAULT_HOST,
            description = "Address to bind [HOST] (default: ${DEFAULT-VALUE}; another address needs authentication, or --insecure).")
    String host;

    @Mixin
    SecurityOptions security;

    @Option(names = "--port", descriptionKey = PORT, defaultValue = DEFAULT_PORT,
            description = "Port to listen on, 0 for any free port [PORT] (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--public-url", descriptionKey = PUBLIC_URL,
            description = "URL the Agent Card tells clients to dial [PUBLIC_URL] (default: http://HOST:PORT/).")
    String publicUrl;

    // No default value: unset means every binding this build serves (ProtocolBinding.defaults()).
    @Option(names = "--bindings", descriptionKey = A2A_BINDINGS, paramLabel = "BINDING,...",
            description = "Protocol bindings to serve, in the card's order of preference: JSONRPC, HTTP+JSON (or REST), "
                    + "GRPC, JSONRPC-0.3 [A2A_BINDINGS] (default: every binding this build serves).")
    String bindings;

    // Any free port by default: PORT+1 is the tap's 41242 and PORT+2 mcp's 41243, and a fixed default
    // would clash with a second instance started with only PORT changed. The card names the port bound.
    @Option(names = "--grpc-port", descriptionKey = GRPC_PORT, defaultValue = DEFAULT_GRPC_PORT,
            description = "Port of the gRPC binding, on HOST; 0 for any free port, which the card advertises "
                    + "and the start-up line prints [GRPC_PORT] (default: ${DEFAULT-VALUE}).")
    int grpcPort;

    @Option(names = "--grpc-public-address", descriptionKey = GRPC_PUBLIC_ADDRESS, paramLabel = "HOST:PORT",
            description = "host:port the card advertises for gRPC, e.g. legate tap's [GRPC_PUBLIC_ADDRESS] "
                    + "(default: PUBLIC_URL's host and the gRPC port).")
    String grpcPublicAddress;

    @Option(names = "--name", descriptionKey = AGENT_NAME,
            description = "Name in the Agent Card, replacing the agent's own outright [AGENT_NAME] (default: the agent's own).")
    String name;

    @Option(names = "--max-body-bytes", descriptionKey = MAX_BODY_BYTES, defaultValue = DEFAULT_MAX_BODY_BYTES,
            description = "Largest request body accepted [MAX_BODY_BYTES] (default: ${DEFAULT-VALUE}).")
    int maxBodyBytes;

    @Option(names = "--store", descriptionKey = TASK_STORE, defaultValue = DEFAULT_TASK_STORE,
            description = "Where tasks are kept: sqlite (a file in DATA_DIR), memory (gone with the process) or postgres (DATABASE_URL) [TASK_STORE] (default: ${DEFAULT-VALUE}).")
    String store;

    // No default value: unset means the command's own folder (dataDir()), so that legate agent and
    // legate bridge started from one folder do not both claim one legate.db.
    @Option(names = "--data-dir", descriptionKey = DATA_DIR,
            description = "Directory of the sqlite store's legate.db, created on start; one process per directory "
                    + "[DATA_DIR] (default: data/agent for legate agent, data/bridge for legate bridge).")
    Path dataDir;

    /** agent or bridge: the command these options belong to, which names its default DATA_DIR. */
    private final String command;

    /**
     * @param command              agent or bridge, which names the default DATA_DIR
     * @param maxTasksPerPrincipal the command's default for MAX_TASKS_PER_PRINCIPAL (see {@link SecurityOptions})
     */
    ServerOptions(String command, int maxTasksPerPrincipal) {
        this.command = command;
        this.security = new SecurityOptions(maxTasksPerPrincipal);
    }

    /** DATA_DIR, or the command's own folder under data/ when it is not set. */
    Path dataDir() {
        return dataDir != null ? dataDir : Path.of(DATA_ROOT, command);
    }

    /**
     * A one-line note when DATA_DIR is not set and data/legate.db is there: the store every command
     * shared before each had a folder of its own. It is left where it is, since nothing says which
     * command wrote it; the note says how to go on with it. Null when there is nothing to say.
     */
    String earlierStoreNote() {
        Path earlier = Path.of(DATA_ROOT, "legate.db");
        if (dataDir != null || !TaskStores.SQLITE.equals(store) || !Files.isRegularFile(earlier)) {
            return null;
        }
        return "legate " + command + ": note: " + earlier + " is the store of an earlier Legate, which all commands"
                + " shared; legate " + command + " now keeps its tasks in " + dataDir() + "/. To go on with the old tasks, stop Legate and move "
                + earlier + "* into " + dataDir() + "/, or set DATA_DIR=" + DATA_ROOT;
    }

    // No ${DEFAULT-VALUE} here: the help would print the URL from the environment, password included.
    @Option(names = "--database-url", descriptionKey = DATABASE_URL,
            description = "The postgres store's database: postgres://user:password@host:port/db or a JDBC URL [DATABASE_URL];"
                    + " with a password, set it in the environment or .env: a flag is visible to every user (ps).")
    String databaseUrl;

    @Option(names = "--task-retention", descriptionKey = TASK_RETENTION, defaultValue = DEFAULT_TASK_RETENTION,
            converter = Durations.class,
            description = "Delete finished tasks this long after their last change: 30s, 10m, 12h, 7d; 0 keeps them [TASK_RETENTION] (default: ${DEFAULT-VALUE}).")
    Duration taskRetention;

    @Option(names = "--max-tasks", descriptionKey = MAX_TASKS, defaultValue = DEFAULT_MAX_TASKS,
            description = "Finished tasks the memory store keeps at most, the oldest forgotten first [MAX_TASKS] (default: ${DEFAULT-VALUE}).")
    int maxTasks;

    @Option(names = "--shutdown-grace-ms", descriptionKey = SHUTDOWN_GRACE_MS, defaultValue = DEFAULT_SHUTDOWN_GRACE_MS,
            description = "On SIGTERM, how long running turns may go on finishing while new ones are refused (503); "
                    + "exit status 0 when they all did, 1 when some were cut off [SHUTDOWN_GRACE_MS] (default: ${DEFAULT-VALUE}).")
    long shutdownGraceMs;

    // No default: /metrics is on the A2A port unless a port is given.
    @Option(names = "--metrics-port", descriptionKey = METRICS_PORT,
            description = "Serve /metrics on this loopback port instead of the A2A port, 0 for any free port [METRICS_PORT].")
    Integer metricsPort;

    // No ${DEFAULT-VALUE}: a token never goes into the help.
    @Option(names = "--metrics-token", descriptionKey = METRICS_TOKEN,
            description = "Bearer token /metrics asks for; without one /metrics is served on a loopback bind only [METRICS_TOKEN];"
                    + " set it in the environment or .env: a flag is visible to every user (ps).")
    String metricsToken;

    // postgres://user:password@host/db, or a JDBC URL's password parameter.
    private static final Pattern URL_PASSWORD = Pattern.compile("://[^/@?]*:[^/@?]*@|[?&;]password=",
            Pattern.CASE_INSENSITIVE);

    /**
     * A warning for each secret the command line gives (--metrics-token, a --database-url with a
     * password): a process's arguments are readable by every user of the machine (ps,
     * /proc/PID/cmdline), the bridge's agent included, where the environment and .env are the
     * user's own. Empty when there is none.
     */
    List<String> secretsOnCommandLine(CommandLine.ParseResult parsed, String command) {
        List<String> out = new ArrayList<>();
        String why = " on the command line can be read by every user of this machine and by the processes"
                + " this one starts (ps, /proc/" + ProcessHandle.current().pid() + "/cmdline); set ";
        if (parsed.hasMatchedOption("--metrics-token")) {
            out.add(command + ": warning: --metrics-token" + why + METRICS_TOKEN + " in the environment or .env instead");
        }
        if (parsed.hasMatchedOption("--database-url") && databaseUrl != null && URL_PASSWORD.matcher(databaseUrl).find()) {
            out.add(command + ": warning: the password in --database-url" + why + DATABASE_URL
                    + " in the environment or .env instead");
        }
        return out;
    }

    /** Set by {@link #forTraining}: no tracing, whatever the OTEL_* variables say. */
    private boolean untraced;

    /**
     * The options of bin/legate's start-up archive training run, whatever the command line and the
     * environment said: a server on a free loopback port, with a sqlite store in {@code scratch} (the
     * default store, so its classes are in the archive; the caller deletes the folder), no metrics
     * port or token, no instances to join and no traces exported. It touches no user data and
     * sends nothing to anyone but itself.
     */
    void forTraining(Path scratch) {
        host = "127.0.0.1";
        port = 0;
        grpcPort = 0;
        publicUrl = null;
        grpcPublicAddress = null;
        store = TaskStores.SQLITE;
        dataDir = scratch;
        databaseUrl = null;
        instanceUrl = null;
        instanceId = null;
        metricsPort = null;
        metricsToken = null;
        untraced = true;
    }

    /**
     * Where /metrics is served and who may read it, and tracing as the OTEL_* settings ask (off
     * without them).
     *
     * @throws IllegalArgumentException a setting Legate cannot honour, with what to change
     */
    Telemetry telemetry(String serviceName) {
        return new Telemetry(metricsPort == null ? Telemetry.ON_A2A_PORT : metricsPort, metricsToken,
                untraced ? Tracing.OFF : tracing(serviceName));
    }

    /**
     * Tracing as the OTEL_* settings ask: the environment, then {@code .env} in the working
     * directory (what a service installed by {@code legate service} is configured by), like every
     * other key.
     */
    static Tracing tracing(String serviceName) {
        Settings settings = Settings.load(Path.of(""), System.getenv());
        Map<String, String> otel = new HashMap<>();
        for (String key : Tracing.KEYS) {
            settings.get(key).ifPresent(v -> otel.put(key, v));
        }
        return Tracing.fromEnvironment(serviceName, otel);
    }
    @Option(names = "--instance-url", descriptionKey = INSTANCE_URL,
            description = "With TASK_STORE=postgres, where the other instances on the database reach this one: its JSON-RPC URL [INSTANCE_URL] (default: the URL it listens on).")
    String instanceUrl;

    @Option(names = "--instance-id", descriptionKey = INSTANCE_ID,
            description = "With TASK_STORE=postgres, this instance's id among the others [INSTANCE_ID] (default: generated at each start).")
    String instanceId;

    @Option(names = "--lease-ttl-ms", descriptionKey = LEASE_TTL_MS, defaultValue = DEFAULT_LEASE_TTL_MS,
            description = "With TASK_STORE=postgres, how long after its last heartbeat an instance is gone: its running tasks FAILED, its conversations free [LEASE_TTL_MS] (default: ${DEFAULT-VALUE}).")
    long leaseTtlMs;

    @Option(names = "--lease-heartbeat-ms", descriptionKey = LEASE_HEARTBEAT_MS, defaultValue = DEFAULT_LEASE_HEARTBEAT_MS,
            description = "With TASK_STORE=postgres, how often an instance renews its heartbeat, at most a third of LEASE_TTL_MS [LEASE_HEARTBEAT_MS] (default: ${DEFAULT-VALUE}).")
    long leaseHeartbeatMs;

    /** The public URL and the JSON-RPC path; null (after printing why) when PUBLIC_URL is not an http(s) URL. */
    ServerSetup setup() {
        return ServerSetup.of(host, port, publicUrl);
    }

    /**
     * How the server listens, answering JSON-RPC on {@code rpcPath}, with its callers' security.
     *
     * @throws IllegalArgumentException a usage error in the security keys or A2A_BINDINGS, or a bind
     *                                  the security does not allow (README "Security"), saying why
     */
    ServerConfig config(String rpcPath) {
        List<ProtocolBinding> served = ProtocolBinding.parse(bindings);
        ServerSecurity callers = security.security();
        ServerExposure exposure = ServerExposure.of(host, publicUrl, callers.authentication().isEnabled(),
                security.insecure);
        if (exposure.refusal() != null) {
            throw new IllegalArgumentException(exposure.refusal());
        }
        if (exposure.warning() != null) {
            System.err.println("legate: " + exposure.warning());
        }
        return new ServerConfig(host, port, rpcPath, maxBodyBytes, CANCEL_WAIT).withTaskRetention(taskRetention)
                .withSecurity(callers).withBindings(served).withGrpcPort(grpcPort)
                .withGrpcPublicAddress(grpcPublicAddress);
    }

    /**
     * {@code gRPC: 127.0.0.1:43121 (lf.a2a.v1.A2AService)}: where the gRPC binding is dialled, as the
     * card advertises it; null when gRPC is not served.
     */
    /**
     * The lines a started server prints, the agent's and the bridge's alike: scripts, bench/ and the
     * tests read the listening URL and the card's address from them, so one place words them.
     */
    static void printStarted(String title, ServerSetup setup, int bound, List<ProtocolBinding> bindings,
                             AgentServer server) {
        System.out.println(title + " is listening on " + setup.listeningUrl(bound) + " (A2A: " + describe(bindings) + ")");
        System.out.println("Agent Card: " + URI.create(setup.publicUrl(bound)).resolve("/.well-known/agent-card.json"));
        String grpc = grpcLine(server);
        if (grpc != null) {
            System.out.println(grpc);
        }
    }

    private static String grpcLine(AgentServer server) {
        if (server.grpcPort() < 0) {
            return null;
        }
        String advertised = server.handler().card().getSupportedInterfacesList().stream()
                .filter(i -> i.getProtocolBinding().equals(ProtocolBinding.GRPC.protocolBinding()))
                .map(AgentInterface::getUrl).findFirst().orElse("port " + server.grpcPort());
        return "gRPC: " + advertised + " (lf.a2a.v1.A2AService; listening on port " + server.grpcPort() + ")";
    }

    /** {@code JSONRPC 1.0, HTTP+JSON 1.0}: the bindings served, for the line printed at start. */
    private static String describe(List<ProtocolBinding> served) {
        return String.join(", ", served.stream().map(b -> b.protocolBinding() + " " + b.protocolVersion()).toList());
    }
}
