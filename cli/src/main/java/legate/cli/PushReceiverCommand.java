package legate.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import legate.a2a.client.PushReceiver;
import legate.a2a.client.TrustedKeys;
import legate.cli.client.EventPrinter;
import legate.cli.client.Palette;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code legate push-receiver}: a webhook for people trying push notifications out. It checks each
 * delivery against the agent's JWKS ({@link PushReceiver}) and prints one line per notification;
 * a delivery that fails a check is answered 401 and named on standard error.
 */
@Command(name = "push-receiver", mixinStandardHelpOptions = true, versionProvider = Legate.Version.class,
        description = {"Receive push notifications: verify each one's JWT against the agent's JWKS and print it.",
                "Register it with: legate client ask --push http://127.0.0.1:41244/ TEXT (the agent needs "
                        + "PUSH_ALLOW_HOSTS=127.0.0.1:41244 for a plain http webhook on loopback)."})
final class PushReceiverCommand implements Callable<Integer> {
    static final int DEFAULT_PORT = 41244;

    @Spec
    CommandSpec spec;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "The address to listen on (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "41244", description = "The port to listen on; 0 picks one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--agent-url", descriptionKey = "AGENT_URL", defaultValue = ClientCommand.DEFAULT_URL,
            description = "The agent whose /.well-known/jwks.json verifies the deliveries [AGENT_URL] (default: ${DEFAULT-VALUE}).")
    String agentUrl;

    @Option(names = "--jwks", paramLabel = "URL_OR_FILE", description = "Verify against this JWKS (a URL or a file)"
            + " instead of the agent's.")
    String jwks;

    @Option(names = "--token", paramLabel = "TOKEN", description = "Refuse deliveries without this notification token"
            + " (the --push-token the webhook was registered with).")
    String token;

    @Option(names = "--json", description = "Print each notification as one line of ProtoJSON (a StreamResponse).")
    boolean json;

    @Option(names = "--count", paramLabel = "N", description = "Exit after N verified notifications (default: run until stopped).")
    int count;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String source = jwks != null ? jwks : URI.create(agentUrl.strip()).resolve("/.well-known/jwks.json").toString();
        EventPrinter printer = new EventPrinter(out, err, json, json ? Palette.PLAIN : Palette.forTerminal(System.getenv()));
        CountDownLatch done = new CountDownLatch(1);
        AtomicInteger received = new AtomicInteger();
        PushReceiver receiver = new PushReceiver(new InetSocketAddress(host, port), () -> {
            try {
                return TrustedKeys.load(source, null, Duration.ofSeconds(10));
            } catch (IllegalArgumentException e) {
                synchronized (err) {
                    err.println("legate push-receiver: cannot load the JWKS yet: " + e.getMessage());
                    err.flush();
                }
                return List.of();
            }
        }, token, Clock.systemUTC(), outcome -> {
            switch (outcome) {
                case PushReceiver.Outcome.Accepted a -> {
                    synchronized (out) {
                        printer.notification(a.event(), a.taskId(), a.seq());
                    }
                    if (count > 0 && received.incrementAndGet() >= count) {
                        done.countDown();
                    }
                }
                case PushReceiver.Outcome.Refused r -> {
                    synchronized (err) {
                        err.println("legate push-receiver: refused a delivery: " + r.reason());
                        err.flush();
                    }
                }
            }
        });
        int bound = receiver.start();
        err.println("legate push-receiver: listening on http://" + host + ":" + bound + "/, verifying against " + source);
        err.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            receiver.close();
            done.countDown();
        }, "legate-push-receiver-stop"));
        try {
            done.await();
        } finally {
            receiver.close();
        }
        return 0;
    }
}
