package legate.cli;

import java.io.BufferedOutputStream;
import java.io.Console;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import legate.tap.proxy.TapConfig;
import legate.tap.proxy.TapProxy;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeListener;
import legate.tap.show.ExchangeLog;
import legate.tap.show.ProtocolCheck;
import legate.tap.show.ShownHeaders;
import legate.tap.show.WirePrinter;
import legate.tap.web.Inspector;
import legate.tap.web.SessionFile;
import legate.wire.http.KnownHosts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code legate tap}: the wire tap, a transparent proxy in front of an agent that prints every exchange. */
@Command(name = "tap", mixinStandardHelpOptions = true,
        description = {"Print A2A traffic as it passes, through a transparent proxy in front of an agent.",
                "Each request and response is printed with the headers that matter and its body laid out, each SSE "
                + "frame the moment it is forwarded; nothing is buffered or changed on the way.",
                "Clients must dial the tap, so start the agent with PUBLIC_URL set to the tap's URL:",
                "  PUBLIC_URL=http://localhost:41242/ legate agent",
                "  legate tap",
                "  AGENT_URL=http://localhost:41242 legate client",
                "With --web, a page on http://127.0.0.1:41245/ shows every exchange, task and context live.",
                "Each option can also be set by the environment variable named in brackets, or in a .env file."})
final class TapCommand implements Callable<Integer> {
    enum ColourMode { auto, always, never }

    private static final int CONSOLE_BUFFER_BYTES = 64 * 1024;
    static final String TAP_ALLOWED_HOSTS = "TAP_ALLOWED_HOSTS";

    @Option(names = "--host", descriptionKey = "TAP_HOST", defaultValue = TapConfig.DEFAULT_HOST,
            description = "Address to bind [TAP_HOST] (default: ${DEFAULT-VALUE}; the tap is a second door into an "
                    + "agent that authenticates nobody, so loopback).")
    String host;

    @Option(names = "--port", descriptionKey = "TAP_PORT", defaultValue = "" + TapConfig.DEFAULT_PORT,
            description = "Port to listen on, 0 for any free port [TAP_PORT] (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--target", descriptionKey = "TARGET_URL", defaultValue = TapConfig.DEFAULT_TARGET,
            description = "Origin of the agent to forward to; paths pass through unchanged [TARGET_URL] "
                    + "(default: ${DEFAULT-VALUE}).")
    String target;

    @Option(names = "--grpc-target", descriptionKey = "TAP_GRPC_TARGET", paramLabel = "HOST:PORT",
            description = "The agent's gRPC listener (its \"gRPC:\" start-up line): a gRPC (HTTP/2) connection to the "
                    + "tap is forwarded there, its calls shown on the console [TAP_GRPC_TARGET] (default: none, such a connection is closed).")
    String grpcTarget;

    // The tap dials an https agent as legate client would: a private CA, a client certificate for an
    // agent that asks for one. The tap then presents that certificate for every client it forwards.
    @Mixin
    ClientTlsOptions targetTls;

    @Option(names = "--log", descriptionKey = "TAP_LOG", paramLabel = "FILE",
            description = "Also append every exchange to FILE as JSON Lines, one event per line [TAP_LOG].")
    Path log;

    @Option(names = "--api-key-header", descriptionKey = "A2A_API_KEY_HEADER", paramLabel = "NAME",
            description = "The header an API key travels in, shown masked like Authorization [A2A_API_KEY_HEADER] "
                    + "(default: X-API-Key).")
    String apiKeyHeader;

    @Option(names = "--web", descriptionKey = "TAP_WEB", defaultValue = "false", arity = "0..1",
            description = "Also serve the inspector, a live web page of every exchange, task and context [TAP_WEB] "
                    + "(default: ${DEFAULT-VALUE}).")
    boolean web;

    @Option(names = "--web-port", descriptionKey = "TAP_WEB_PORT", defaultValue = "" + Inspector.DEFAULT_PORT,
            description = "The inspector's port, 0 for any free port [TAP_WEB_PORT] (default: ${DEFAULT-VALUE}).")
    int webPort;

    @Option(names = "--web-host", descriptionKey = "TAP_WEB_HOST", defaultValue = TapConfig.DEFAULT_HOST,
            description = "Address the inspector binds [TAP_WEB_HOST] (default: ${DEFAULT-VALUE}; the page shows every "
                    + "exchange and can send the agent messages, so loopback).")
    String webHost;

    @Option(names = "--allowed-hosts", descriptionKey = TAP_ALLOWED_HOSTS, paramLabel = "HOSTS",
            description = "Host names (any port) or name:port the tap and the inspector answer besides their bind "
                    + "address (every interface address on 0.0.0.0), localhost, 127.0.0.1 and [::1], comma-separated; "
                    + "another Host is refused (421 by the tap, 403 by the inspector: DNS-rebinding defence). '*' "
                    + "answers every Host [TAP_ALLOWED_HOSTS] (default: none).")
    String allowedHosts;

    @Option(names = "--replay", paramLabel = "FILE",
            description = "Show a recorded session (the tap's JSON Lines, or a HAR file) instead of forwarding: "
                    + "printed, or with --web served on the inspector until interrupted; no agent is needed.")
    Path replay;

    @Option(names = "--color", paramLabel = "WHEN", defaultValue = "auto",
            description = "Colour the output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}: on a terminal, "
                    + "unless NO_COLOR is set).")
    ColourMode colour;

    @Override
    public Integer call() throws Exception {
        if (replay != null) {
            return replay();
        }
        TapConfig config;
        List<String> hosts;
        try {
            hosts = allowedHosts();
            config = new TapConfig(host, port, URI.create(target.trim()), TapConfig.DEFAULT_MAX_REQUEST_BYTES)
                    .withApiKeyHeader(apiKeyHeader).withGrpcTarget(grpcTarget).withTargetTls(targetTls.tls().context())
                    .withAllowedHosts(hosts);
        } catch (IllegalArgumentException e) {
            System.err.println("legate tap: " + e.getMessage());
            return 2;
        }
        WirePrinter printer = printer();
        List<ExchangeListener> listeners = new ArrayList<>(List.of(printer));
        Inspector inspector = web ? new Inspector(webHost, webPort, config.target(), Clock.systemUTC(), hosts) : null;
        if (inspector != null) {
            listeners.add(inspector);
        }
        ExchangeLog exchangeLog = null;
        if (log != null) {
            try {
                exchangeLog = ExchangeLog.open(log);
            } catch (IOException e) {
                System.err.println("legate tap: cannot open the log " + log + ": " + e.getMessage());
                return 1;
            }
            listeners.add(exchangeLog);
        }
        // The protocol check feeds every listener, so the console, the log and the page flag the same problems.
        TapProxy tap = new TapProxy(config, List.of(new ProtocolCheck(listeners)),
                inspector != null ? ShownHeaders.ALL : ShownHeaders.A2A, Clock.systemUTC());
        try {
            tap.start();
        } catch (IOException e) {
            System.err.println("legate tap: cannot listen on " + host + ":" + port + ": " + e.getMessage());
            closeQuietly(exchangeLog);
            return 1;
        }
        if (inspector != null) {
            inspector.sendThrough(tap.url());
            try {
                inspector.start();
            } catch (IOException e) {
                System.err.println("legate tap: the inspector cannot listen on " + webHost + ":" + webPort + ": " + e.getMessage());
                tap.stop();
                closeQuietly(exchangeLog);
                return 1;
            }
        }
        CountDownLatch stopped = new CountDownLatch(1);
        ExchangeLog logToClose = exchangeLog;
        AtomicBoolean begun = new AtomicBoolean();
        Runnable stop = () -> {
            if (!begun.compareAndSet(false, true)) {
                return;
            }
            try {
                tap.stop();
            } catch (Exception ignored) {
                // shutting down anyway
            }
            if (inspector != null) {
                inspector.close();
            }
            closeQuietly(logToClose);
            stopped.countDown();
        };
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "legate-tap-shutdown"));
        // DEFECT (issue 30): left to the JVM, SIGTERM exited 143, where legate agent, bridge and mcp
        // exit 0 after a stop by SIGTERM; a supervisor (or a script's kill) read the tap's stop as a failure.
        // Armed before the start-up lines: a script may stop the tap as soon as it reads them.
        ServerStart.onSigterm(stop);
        if (inspector != null) {
            printer.note("legate tap: inspector on " + inspector.url());
        }
        printer.note("legate tap: " + tap.url() + " -> " + config.target()
                + (log != null ? " (logging to " + log + ")" : ""));
        if (hosts.contains("*")) {
            // Said out loud: with the check off, a page a browser reaches by a name of its own can
            // drive the agent through the tap (DNS rebinding).
            printer.note("legate tap: TAP_ALLOWED_HOSTS is *: every Host is answered, so a web page can reach the agent"
                    + " through the tap by a name that points here; list the names callers use instead");
        } else if (hosts.isEmpty() && (!KnownHosts.isLoopback(host) || inspector != null && !KnownHosts.isLoopback(webHost))) {
            String wide = !KnownHosts.isLoopback(host) ? host : webHost;
            printer.note("legate tap: " + wide + " is not loopback: only requests that name localhost, 127.0.0.1, [::1]"
                    + " or this machine's address as Host are answered; list the names callers use in TAP_ALLOWED_HOSTS");
        }
        if (targetTls.clientCert != null) {
            printer.note("legate tap: the agent sees every client of the tap as the holder of " + targetTls.clientCert
                    + " (mutual TLS); keep the tap where only you can reach it");
        }
        printer.note("legate tap: clients must dial the tap; the agent's card must say so (PUBLIC_URL=" + tap.url() + ")");
        if (config.grpcTarget() != null) {
            printer.note("legate tap: gRPC (HTTP/2) connections to the tap are forwarded to " + grpcTarget.strip()
                    + ", each call shown as an exchange (GRPC_PUBLIC_ADDRESS=" + tap.url().getAuthority() + " puts the tap in the agent's card)");
        }
        tap.join();
        stopped.await();
        return 0;
    }

    /**
     * {@code --replay FILE}: the recorded events checked again and printed, or with {@code --web}
     * served on the inspector until interrupted. Problems are found anew, so a file recorded
     * elsewhere (a HAR from a browser) gets them too, and a recorded one gets each once.
     */
    private int replay() throws InterruptedException {
        List<ExchangeEvent> events;
        try {
            events = SessionFile.read(Files.readAllBytes(replay));
        } catch (IOException e) {
            System.err.println("legate tap: cannot read " + replay + ": " + e.getMessage());
            return 2;
        } catch (IllegalArgumentException e) {
            System.err.println("legate tap: cannot replay " + replay + ": " + e.getMessage());
            return 2;
        }
        WirePrinter printer = printer();
        URI origin;
        try {
            // The agent the session was recorded in front of, for the URLs of a HAR export.
            origin = TapConfig.loopback(0, URI.create(target.trim())).target();
        } catch (IllegalArgumentException e) {
            System.err.println("legate tap: " + e.getMessage());
            return 2;
        }
        List<String> hosts;
        try {
            hosts = allowedHosts();
        } catch (IllegalArgumentException e) {
            System.err.println("legate tap: " + e.getMessage());
            return 2;
        }
        Inspector inspector = web ? new Inspector(webHost, webPort, origin, Clock.systemUTC(), hosts) : null;
        ProtocolCheck check = new ProtocolCheck(inspector != null ? List.of(inspector) : List.of(printer));
        for (ExchangeEvent event : events) {
            if (!(event instanceof ExchangeEvent.Flagged)) {
                check.on(event);
            }
        }
        check.caughtUp();
        if (inspector == null) {
            return 0;
        }
        try {
            inspector.start();
        } catch (IOException e) {
            System.err.println("legate tap: the inspector cannot listen on " + webHost + ":" + webPort + ": " + e.getMessage());
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        AtomicBoolean begun = new AtomicBoolean();
        Runnable stop = () -> {
            if (begun.compareAndSet(false, true)) {
                inspector.close();
                stopped.countDown();
            }
        };
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "legate-tap-shutdown"));
        ServerStart.onSigterm(stop);
        printer.note("legate tap: replaying " + replay + " (" + events.stream().map(ExchangeEvent::exchange).distinct().count()
                + " exchanges); inspector on " + inspector.url());
        stopped.await();
        return 0;
    }

    /**
     * TAP_ALLOWED_HOSTS split and checked as ALLOWED_HOSTS is for the agent.
     *
     * @throws IllegalArgumentException naming the entry that is no host name, IP literal or name:port
     */
    private List<String> allowedHosts() {
        return KnownHosts.parseSetting(allowedHosts, TAP_ALLOWED_HOSTS);
    }

    private WirePrinter printer() {
        // Buffered, not flushed on every write: the printer flushes once the listener thread has
        // caught up, so a busy tap writes its console once per batch of events, not once per event.
        PrintStream console = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out),
                CONSOLE_BUFFER_BYTES), false, System.out.charset());
        return new WirePrinter(console, switch (colour) {
            case always -> true;
            case never -> false;
            case auto -> System.getenv("NO_COLOR") == null && isTerminal();
        }, ShownHeaders.A2A.withApiKeyHeader(apiKeyHeader));
    }

    private static void closeQuietly(ExchangeLog log) {
        if (log != null) {
            try {
                log.close();
            } catch (IOException ignored) {
                // the last lines were flushed as they were written
            }
        }
    }

    /**
     * Whether standard output is a terminal. From JDK 22 on, System.console() exists even when
     * output is redirected and {@code Console.isTerminal()} tells; on JDK 21 a console means a terminal.
     */
    private static boolean isTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (NoSuchMethodException e) {
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }
}
