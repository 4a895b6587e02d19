package legate.cli.doctor;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.cert.CRL;
import java.security.cert.CRLException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509CRL;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.acp.adapter.AdapterNotInstalled;
import legate.acp.adapter.Backend;
import legate.acp.adapter.BackendChoice;
import legate.cli.service.HostCommands;
import legate.store.postgres.DatabaseUrl;
import legate.a2a.model.signature.CardSigningKey;
import legate.store.postgres.PostgresStoreCheck;
import legate.wire.pem.PemException;
import legate.store.sqlite.SqliteStoreCheck;
import legate.wire.http.BindAddress;

/**
 * {@code legate doctor}: everything a command needs, checked before it runs, each finding with what
 * to do. Reads the configuration as the command would (a key lookup over the environment and
 * {@code .env}), and changes nothing: no file is created, no store opened for writing, no adapter
 * prompted.
 */
public final class Doctor {
    /**
     * The adapter versions Legate's bridge was tested with: the versions pinned in the project's
     * {@code adapters/package.json} (a test holds the two equal).
     */
    public static final Map<String, String> TESTED_ADAPTERS = Map.of(Backend.CLAUDE, "0.23.1", Backend.CODEX, "0.16.0");
    static final int MIN_JAVA = 21;
    static final int MIN_NODE = 20;
    /** The key files a configuration may name, each of which must be readable if named. */
    static final List<String> KEY_FILES = List.of("TLS_CERT", "TLS_KEY", "CARD_SIGNING_KEY", "PUSH_SIGNING_KEY",
            "A2A_TOKENS_FILE", "A2A_JWT_KEY", "A2A_EXTENDED_CARD", "ACP_POLICY", "A2A_CLIENT_CA", "A2A_CLIENT_CRL");
    /** How soon before a revocation list's nextUpdate the doctor warns that the next one is due. */
    static final Duration CRL_DUE = Duration.ofHours(24);
    /** Of those, the ones that hold secrets: readable by their owner only. */
    static final Set<String> SECRET_FILES = Set.of("TLS_KEY", "CARD_SIGNING_KEY", "PUSH_SIGNING_KEY", "A2A_TOKENS_FILE");
    /** Of those, the private keys something is signed with: each must be one Legate can sign with. */
    static final Set<String> SIGNING_KEYS = Set.of("CARD_SIGNING_KEY", "PUSH_SIGNING_KEY");

    private final Function<String, Optional<String>> config;
    private final Map<String, String> env;
    private final Path userHome;
    private final List<Path> adapterDirs;

    /**
     * @param config the command's configuration key lookup (environment, then {@code .env})
     * @param env the environment (PATH, for Node.js and the adapters)
     * @param userHome where the adapters keep their logins
     * @param adapterDirs where the project's own adapters may be installed
     */
    public Doctor(Function<String, Optional<String>> config, Map<String, String> env, Path userHome,
                  List<Path> adapterDirs) {
        this.config = config;
        this.env = env;
        this.userHome = userHome;
        this.adapterDirs = List.copyOf(adapterDirs);
    }

    /** The commands a bare {@code legate doctor} checks, in the order it prints them. */
    public static final List<String> COMMANDS = List.of("agent", "bridge", "mcp");

    /**
     * Whether Legate can run here at all: every command's checks, by command. The bridge's group
     * also looks at each adapter it was not configured with, which only warns: it is what
     * {@code --backend} would need, not what the bridge runs.
     */
    public Map<String, List<Finding>> examineEverything() throws InterruptedException {
        Map<String, List<Finding>> out = new LinkedHashMap<>();
        for (String command : COMMANDS) {
            List<Finding> findings = new ArrayList<>(examine(command));
            if (command.equals("bridge") && get("ACP_AGENT_CMD").isEmpty()) {
                String configured = configuredBackend();
                for (String other : TESTED_ADAPTERS.keySet().stream().sorted().toList()) {
                    if (!other.equals(configured)) {
                        adapter(other, null).stream().map(f -> f.verdict() != Finding.Verdict.FAIL ? f
                                : Finding.warn(f.subject(), f.detail() + " (needed only with ACP_AGENT=" + other + ")",
                                        f.fix())).forEach(findings::add);
                    }
                }
            }
            out.put(command, findings);
        }
        return out;
    }

    /** The checks for {@code command}: {@code agent}, {@code bridge} or {@code mcp}. */
    public List<Finding> examine(String command) throws InterruptedException {
        List<Finding> out = new ArrayList<>();
        out.add(java());
        switch (command) {
            case "agent" -> {
                out.add(port("HOST", "PORT", "41241"));
                // The gRPC binding's own port: any free one unless GRPC_PORT fixes it.
                out.add(port("HOST", "GRPC_PORT", "0"));
                out.add(store(command));
                out.addAll(keyFiles());
            }
            case "bridge" -> {
                out.add(node());
                out.addAll(adapter());
                out.add(port("HOST", "PORT", "41241"));
                out.add(port("HOST", "GRPC_PORT", "0"));
                out.add(store(command));
                out.addAll(keyFiles());
            }
            case "mcp" -> {
                out.add(port("MCP_HOST", "MCP_PORT", "41243"));
                out.add(mcpTokenFile());
            }
            default -> throw new IllegalArgumentException("unknown command '" + command + "': agent, bridge or mcp");
        }
        return out;
    }

    private Optional<String> get(String key) {
        return config.apply(key);
    }

    static Finding java() {
        Runtime.Version v = Runtime.version();
        String where = System.getProperty("java.home");
        if (v.feature() < MIN_JAVA) {
            return Finding.fail("JDK", v + " at " + where, "install a JDK " + MIN_JAVA + " or newer and point JAVA_HOME at it");
        }
        return Finding.ok("JDK", v + " (" + System.getProperty("java.vendor") + ") at " + where);
    }

    /** Node.js, which runs the adapters (claude-agent-acp is a Node program, codex-acp ships through npm). */
    Finding node() throws InterruptedException {
        Path node = new HostCommands(env).which("node").orElse(null);
        if (node == null) {
            return Finding.fail("Node.js", "not found on PATH", "install Node.js " + MIN_NODE + " or newer");
        }
        String version = run(List.of(node.toString(), "--version"));
        Matcher m = Pattern.compile("v?(\\d+)\\.").matcher(version == null ? "" : version);
        if (!m.find()) {
            return Finding.fail("Node.js", node + " did not say its version", "reinstall Node.js " + MIN_NODE + " or newer");
        }
        if (Integer.parseInt(m.group(1)) < MIN_NODE) {
            return Finding.fail("Node.js", version.strip() + " at " + node, "install Node.js " + MIN_NODE + " or newer");
        }
        return Finding.ok("Node.js", version.strip() + " at " + node);
    }

    private String configuredBackend() {
        return get("ACP_AGENT").orElse(Backend.CLAUDE).toLowerCase(Locale.ROOT);
    }

    /** The adapter the bridge would run: found, its version against the tested one, and its login. */
    List<Finding> adapter() {
        return adapter(configuredBackend(), get("ACP_AGENT_CMD").orElse(null));
    }

    /** The adapter of {@code backend} (claude or codex), or the agent {@code commandLine} names when not null. */
    List<Finding> adapter(String backend, String commandLine) {
        BackendChoice choice = new BackendChoice(backend, commandLine, get("ACP_MODE").orElse(null),
                get("ACP_CLAUDE_BIN").map(Path::of).orElse(null), get("ACP_CODEX_BIN").map(Path::of).orElse(null),
                adapterDirs, env.getOrDefault("PATH", ""));
        Backend b;
        try {
            b = choice.resolve();
        } catch (AdapterNotInstalled e) {
            return List.of(Finding.fail("adapter " + backend, "not found", e.getMessage()));
        } catch (IllegalArgumentException e) {
            return List.of(Finding.fail("adapter", e.getMessage(), "set ACP_AGENT to claude or codex, or ACP_AGENT_CMD"));
        }
        List<String> argv = b.command().argv();
        String program = argv.get(argv.size() > 1 && argv.get(0).endsWith("node") ? 1 : 0);
        List<Finding> out = new ArrayList<>();
        if (choice.isCommandLine()) {
            out.add(Finding.ok("adapter", "ACP_AGENT_CMD: " + String.join(" ", argv)
                    + " (any ACP agent; its version and login are its own)"));
            return out;
        }
        String tested = TESTED_ADAPTERS.get(b.id());
        Optional<String> version = packageVersion(Path.of(program));
        String found = b.label() + " adapter at " + program + version.map(v -> ", version " + v).orElse("");
        if (version.isEmpty()) {
            out.add(Finding.warn("adapter " + b.id(), found + " (version unknown)",
                    "Legate was tested with " + tested + "; adapters/install.sh installs that one"));
        } else if (!version.get().equals(tested)) {
            out.add(Finding.warn("adapter " + b.id(), found, "Legate was tested with " + tested
                    + "; adapters/install.sh installs that one"));
        } else {
            out.add(Finding.ok("adapter " + b.id(), found + " (the version Legate was tested with)"));
        }
        out.add(login(b));
        return out;
    }

    /**
     * Whether the adapter's agent is logged in, told without spending tokens: the API key in the
     * environment or the configuration, or the login file the agent's own CLI writes. (Asking the
     * agent would mean a prompt, which costs tokens once logged in.)
     */
    Finding login(Backend b) {
        String subject = b.label() + " login";
        List<String> keys = b.id().equals(Backend.CLAUDE) ? List.of("ANTHROPIC_API_KEY", "CLAUDE_CODE_OAUTH_TOKEN")
                : List.of("OPENAI_API_KEY", "CODEX_API_KEY");
        for (String k : keys) {
            if (get(k).isPresent() || env.containsKey(k) && !env.get(k).isBlank()) {
                return Finding.ok(subject, k + " is set");
            }
        }
        Path file = b.id().equals(Backend.CLAUDE)
                ? Path.of(env.getOrDefault("CLAUDE_CONFIG_DIR", userHome.resolve(".claude").toString()), ".credentials.json")
                : Path.of(env.getOrDefault("CODEX_HOME", userHome.resolve(".codex").toString()), "auth.json");
        if (Files.isRegularFile(file)) {
            return Finding.ok(subject, "logged in (" + file + ")");
        }
        if (b.id().equals(Backend.CLAUDE) && System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("mac")) {
            return Finding.warn(subject, "no API key set; on macOS the login is kept in the Keychain, which cannot be "
                    + "read without asking the agent", "if tasks fail with 'not logged in': " + b.loginHint());
        }
        return Finding.fail(subject, "not logged in: no " + String.join(" or ", keys) + ", no " + file, b.loginHint());
    }

    /** The version in the npm package.json nearest above the adapter's file. */
    static Optional<String> packageVersion(Path program) {
        Path p;
        try {
            p = program.toRealPath();
        } catch (IOException e) {
            return Optional.empty();
        }
        for (int i = 0; i < 4 && p != null; i++, p = p.getParent()) {
            Path pkg = p.resolve("package.json");
            if (Files.isRegularFile(pkg)) {
                try {
                    Matcher m = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]+)\"")
                            .matcher(Files.readString(pkg, StandardCharsets.UTF_8));
                    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
                } catch (IOException e) {
                    return Optional.empty();
                }
            }
        }
        return Optional.empty();
    }

    /** Whether the server could listen where it is configured to, and who holds the port when not. */
    Finding port(String hostKey, String portKey, String defaultPort) throws InterruptedException {
        String host = get(hostKey).orElse("127.0.0.1");
        String portText = get(portKey).orElse(defaultPort);
        int port;
        try {
            port = Integer.parseInt(portText.strip());
        } catch (NumberFormatException e) {
            return Finding.fail(portKey, "'" + portText + "' is not a port number", "set " + portKey + " to 0-65535");
        }
        String subject = "port " + host + ":" + port;
        if (port == 0) {
            return Finding.ok(subject, "any free port is taken at start");
        }
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName(host), port));
            return Finding.ok(subject, "free");
        } catch (IOException e) {
            String holder = cardAt(host, port).map(name -> "a running Legate or A2A agent (" + name + ") holds it")
                    .orElse("in use (" + e.getMessage() + ")");
            return Finding.fail(subject, holder, "stop what listens there, or set " + portKey + " to another port");
        }
    }

    private static Optional<String> cardAt(String host, int port) throws InterruptedException {
        try {
            HttpResponse<String> r = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build().send(
                    HttpRequest.newBuilder(URI.create(BindAddress.dialableUrl(host, port, "/.well-known/agent-card.json")))
                            .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                return Optional.empty();
            }
            Matcher m = Pattern.compile("\"name\"\\s*:\\s*\"([^\"]{1,80})\"").matcher(r.body());
            return Optional.of(m.find() ? m.group(1) : "a card without a name");
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * The task store: reachable and at a schema version this build can use, without changing it.
     * Without DATA_DIR, each command's SQLite file is in a folder of its own, data/agent or data/bridge.
     */
    Finding store(String command) {
        String kind = get("TASK_STORE").orElse("sqlite").toLowerCase(Locale.ROOT);
        return switch (kind) {
            case "memory" -> Finding.warn("task store", "memory: tasks do not survive a restart",
                    "TASK_STORE=sqlite (the default) keeps them");
            case "sqlite" -> {
                Optional<String> dataDir = get("DATA_DIR");
                SqliteStoreCheck c = SqliteStoreCheck.of(dataDir.map(Path::of).orElse(Path.of("data", command)));
                Path earlier = Path.of("data", "legate.db");
                if (c.problem() == null && !c.inUse() && dataDir.isEmpty() && !c.exists() && Files.isRegularFile(earlier)) {
                    yield Finding.warn("task store", "sqlite: " + c.file() + " (created at start); " + earlier
                            + " is the store of an earlier Legate, which all commands shared",
                            "to go on with its tasks, stop Legate and move " + earlier + "* into " + c.file().getParent()
                                    + "/, or set DATA_DIR=data");
                }
                if (c.problem() != null) {
                    yield Finding.fail("task store", "sqlite: " + c.problem(), "point DATA_DIR at a folder of its own");
                }
                if (c.inUse()) {
                    yield Finding.fail("task store", "sqlite: " + c.file() + " is held by a running Legate",
                            "stop it, or give this one another DATA_DIR");
                }
                yield Finding.ok("task store", "sqlite: " + (c.exists() ? c.file() + ", schema version " + c.version()
                        + (c.version() < c.latest() ? " (upgraded to " + c.latest() + " at start)" : "")
                        : c.file() + " (created at start)"));
            }
            case "postgres" -> {
                Optional<String> url = get("DATABASE_URL");
                if (url.isEmpty()) {
                    yield Finding.fail("task store", "postgres without DATABASE_URL",
                            "set DATABASE_URL=postgres://user:password@host:port/db");
                }
                DatabaseUrl parsed;
                try {
                    parsed = DatabaseUrl.parse(url.get());
                } catch (IllegalArgumentException e) {
                    yield Finding.fail("task store", "DATABASE_URL: " + e.getMessage(), "fix DATABASE_URL");
                }
                PostgresStoreCheck c = PostgresStoreCheck.of(parsed);
                if (c.problem() != null) {
                    yield Finding.fail("task store", "postgres: " + c.problem(), "check DATABASE_URL and the server");
                }
                yield Finding.ok("task store", "postgres: " + c.where() + ", schema version " + c.version()
                        + (c.pending() > 0 ? " (" + c.pending() + " migration(s) applied at start, to " + c.latest() + ")"
                        : ""));
            }
            default -> Finding.fail("task store", "TASK_STORE=" + kind + " is not a store",
                    "set TASK_STORE to sqlite, memory or postgres");
        };
    }

    /** Each key file the configuration names: readable, and a secret one readable by its owner only. */
    List<Finding> keyFiles() {
        List<Finding> out = new ArrayList<>();
        for (String key : KEY_FILES) {
            Optional<String> value = get(key);
            if (value.isEmpty() || key.equals("A2A_JWT_KEY") && value.get().startsWith("http")) {
                continue;
            }
            Path p = Path.of(value.get());
            if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
                out.add(Finding.fail(key, p + " is not a readable file", "fix the path in " + key));
                continue;
            }
            if (SIGNING_KEYS.contains(key)) {
                try {
                    CardSigningKey.read(p);
                } catch (PemException e) {
                    out.add(Finding.fail(key, e.getMessage(), "point " + key + " at an EC P-256, Ed25519 or RSA private key"
                            + " in PEM (openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256)"));
                    continue;
                }
            }
            if (key.equals("A2A_CLIENT_CRL")) {
                out.add(revocationLists(p));
                continue;
            }
            if (SECRET_FILES.contains(key) && !ownerOnly(p)) {
                out.add(Finding.warn(key, p + " is readable by others", "chmod 600 " + p));
            } else {
                out.add(Finding.ok(key, p + " readable"));
            }
        }
        return out;
    }

    /**
     * A2A_CLIENT_CRL: every list must be current. Past its nextUpdate a list proves nothing, and the
     * server refuses every certificate its authority issued, so an expired one fails and one due
     * within {@link #CRL_DUE} warns.
     */
    static Finding revocationLists(Path file) {
        List<X509CRL> lists = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            for (CRL crl : CertificateFactory.getInstance("X.509").generateCRLs(in)) {
                if (crl instanceof X509CRL x) {
                    lists.add(x);
                }
            }
        } catch (IOException | CRLException | CertificateException e) {
            lists.clear();
        }
        if (lists.isEmpty()) {
            return Finding.fail("A2A_CLIENT_CRL", file + " holds no certificate revocation list",
                    "point A2A_CLIENT_CRL at the client authorities' lists (PEM X509 CRL or DER)");
        }
        Instant now = Instant.now();
        X509CRL soonest = lists.stream().min(Comparator.comparing(l -> l.getNextUpdate() == null ? Instant.MIN
                : l.getNextUpdate().toInstant())).orElseThrow();
        String issuer = soonest.getIssuerX500Principal().getName();
        Instant due = soonest.getNextUpdate() == null ? null : soonest.getNextUpdate().toInstant();
        if (due == null || !due.isAfter(now)) {
            return Finding.fail("A2A_CLIENT_CRL", "the list of " + issuer + " is out of date"
                    + (due == null ? "" : " since " + due) + ": every certificate that authority issued is refused",
                    "publish its next list (openssl ca -gencrl) into " + file);
        }
        if (due.isBefore(now.plus(CRL_DUE))) {
            return Finding.warn("A2A_CLIENT_CRL", "the list of " + issuer + " is due for its next update at " + due,
                    "publish the next list into " + file + " before then; it is read when the file changes");
        }
        return Finding.ok("A2A_CLIENT_CRL", lists.size() + " list(s) in " + file + ", the next update due " + due);
    }

    /** The MCP token file, when there is one: it holds the bearer token, so mode 600. */
    Finding mcpTokenFile() {
        Path p = Path.of(get("MCP_TOKEN_FILE").orElse(".mcp-token"));
        if (!Files.exists(p)) {
            return Finding.ok("MCP token file", p + " not written yet (legate mcp writes it at start, mode 600)");
        }
        if (!ownerOnly(p)) {
            return Finding.fail("MCP token file", p + " is readable by others: anyone who reads it can call the agents",
                    "chmod 600 " + p);
        }
        return Finding.ok("MCP token file", p + " mode 600");
    }

    private static boolean ownerOnly(Path p) {
        try {
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(p);
            return perms.stream().noneMatch(x -> x.name().startsWith("GROUP") || x.name().startsWith("OTHERS"));
        } catch (IOException | UnsupportedOperationException e) {
            return true;
        }
    }

    /** A short command's output, or null when it failed or took over 10 s. */
    private String run(List<String> command) throws InterruptedException {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readNBytes(4096);
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            return null;
        }
    }
}
