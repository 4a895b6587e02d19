package legate.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import legate.a2a.client.A2aClient;
import legate.a2a.client.A2aClientException;
import legate.a2a.client.AgentCardException;
import legate.a2a.client.AgentErrorException;
import legate.a2a.client.Binding;
import legate.a2a.client.ClientConfig;
import legate.a2a.client.ClientCredentials;
import legate.a2a.client.ClientTrust;
import legate.a2a.client.CredentialException;
import legate.a2a.client.Credentials;
import legate.a2a.client.InvalidResponseException;
import legate.a2a.client.TransportException;
import legate.a2a.client.TrustedKeys;
import legate.a2a.client.UserMessage;
import legate.a2a.model.signature.CardVerifier;
import legate.cli.client.ClientDemo;
import legate.cli.client.ClientExit;
import legate.cli.client.EventPrinter;
import legate.cli.client.Palette;
import legate.cli.client.Turn;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.SendMessageConfiguration;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.TaskPushNotificationConfig;
import lf.a2a.v1.TaskState;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * {@code legate client}: an A2A v1.0 client for people and scripts. Without a subcommand it runs
 * the demonstration ({@link ClientDemo}); the subcommands are the protocol's task operations.
 * Every failure ends in one line on standard error and an exit code from {@link ClientExit}, never
 * a stack trace.
 */
@Command(name = "client", mixinStandardHelpOptions = true, versionProvider = Legate.Version.class,
        subcommands = ClientPushCommand.class,
        description = {"Talk to an A2A v1.0 agent found through its Agent Card.",
                "Without a subcommand: a demonstration of one task over two turns (INPUT_REQUIRED, then WORKING, "
                        + "the artifact and COMPLETED) and a GetTask showing the stored task.",
                "A stream cut before its turn ended is resumed after the last event printed (one line says so) "
                        + "when the agent's card declares resumable streams.",
                "Options can also be set by the environment variable named in brackets, or in a .env file."},
        footer = {"", "Exit codes:",
                "  0  the task completed or asks for input, or the agent answered",
                "  1  the task failed, was canceled or rejected, needs credentials, or its stream",
                "     ended early (cut, and not resumed)",
                "  2  usage error",
                "  3  the agent answered with an error (A2A or JSON-RPC code)",
                "  4  no A2A agent reachable at the URL (refused, timed out, no card, not A2A),",
                "     or its card failed signature verification (--trust, card --verify)"})
final class ClientCommand implements Callable<Integer> {
    static final String DEFAULT_URL = "http://localhost:41241";
    /** Where a Legate agent publishes the keys its card is signed with (README "Signed Agent Cards"). */
    private static final String JWKS_PATH = "/.well-known/jwks.json";
    static final String DEMO_TEXT = "The quick brown fox jumps over the lazy dog. It was not amused!";

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", arity = "0..1", paramLabel = "URL",
            description = "Base URL of the agent (its card is at URL/.well-known/agent-card.json); overrides --agent-url.")
    String url;

    @Mixin
    ClientTlsOptions clientTls = new ClientTlsOptions();

    @Mixin
    OAuthClientOptions oauth = new OAuthClientOptions();

    @Option(names = "--agent-url", descriptionKey = "AGENT_URL", defaultValue = DEFAULT_URL, scope = ScopeType.INHERIT,
            description = "Base URL of the agent [AGENT_URL] (default: ${DEFAULT-VALUE}).")
    String agentUrl;

    // No ${DEFAULT-VALUE} in these two: the help would print the secret from the environment.
    @Option(names = "--token", descriptionKey = "A2A_TOKEN", scope = ScopeType.INHERIT, paramLabel = "TOKEN",
            description = "Bearer token (or JWT) to send when the agent's card asks for one; prefer the variable, a flag shows in ps [A2A_TOKEN].")
    String token;

    @Option(names = "--api-key", descriptionKey = "A2A_API_KEY", scope = ScopeType.INHERIT, paramLabel = "KEY",
            description = "API key to send, in the header the card names, when the card asks for one [A2A_API_KEY].")
    String apiKey;

    // No default: unset, the client dials the first interface of the card it speaks.
    @Option(names = "--binding", descriptionKey = "A2A_BINDING", paramLabel = "BINDING", scope = ScopeType.INHERIT,
            description = "Dial the agent over this binding only: JSONRPC, HTTP+JSON (or REST) or GRPC [A2A_BINDING] "
                    + "(default: the first of the card's interfaces this client speaks).")
    String binding;

    @Option(names = "--json", scope = ScopeType.INHERIT,
            description = "Print each event or result as one line of ProtoJSON, for scripts.")
    boolean json;

    @Option(names = "--trust", descriptionKey = "A2A_TRUST", paramLabel = "KEY_OR_JWKS_URL", scope = ScopeType.INHERIT,
            description = "Refuse an agent whose card is not signed by this key: a PEM public key file, a JWK or JWKS file, "
                    + "or a JWKS URL [A2A_TRUST].")
    String trust;

    @Option(names = "--text", defaultValue = DEMO_TEXT,
            description = "What the demonstration sends in turn 2 (default: a sentence about a fox).")
    String demoText;

    @Override
    public Integer call() {
        return run((client, printer) -> new ClientDemo(client, printer, err()).run(demoText));
    }

    @Command(name = "ask", mixinStandardHelpOptions = true, versionProvider = Legate.Version.class,
            description = "Send a message and stream the task's events until it completes, fails or asks for input.")
    int ask(@Parameters(arity = "1..*", paramLabel = "TEXT", description = "The message; words are joined by spaces.") List<String> words,
            @Option(names = "--context", paramLabel = "ID", description = "Start the task in this conversation (contextId).") String context,
            @Option(names = "--task", paramLabel = "ID", description = "Continue this task, e.g. one that asks for input.") String task,
            @Option(names = "--push", paramLabel = "URL", description = "Register this webhook with the message: the agent"
                    + " posts each of the task's events to it (push notifications; try legate push-receiver).") String push,
            @Option(names = "--push-token", paramLabel = "TOKEN", description = "The token the agent sends the webhook"
                    + " (X-A2A-Notification-Token), for it to check; with --push.") String pushToken) {
        SendMessageRequest.Builder request = SendMessageRequest.newBuilder()
                .setMessage(UserMessage.text(String.join(" ", words), task, context));
        if (push != null) {
            TaskPushNotificationConfig.Builder webhook = TaskPushNotificationConfig.newBuilder().setUrl(push);
            if (pushToken != null) {
                webhook.setToken(pushToken);
            }
            // PROTOCOL (A2A §3.1.1): a webhook registered inline is the task's from its first event.
            request.setConfiguration(SendMessageConfiguration.newBuilder().setTaskPushNotificationConfig(webhook));
        } else if (pushToken != null) {
            return usage("--push-token goes with --push URL");
        }
        return run((client, printer) -> {
            Turn turn = Turn.send(client, request.build(), printer);
            if (turn.state() == TaskState.TASK_STATE_INPUT_REQUIRED) {
                printer.note(printer.palette().dim("The agent asks for input; reply with: legate client ask --task "
                        + turn.taskId() + " TEXT"));
            }
            return outcome(turn);
        });
    }

    @Command(name = "get", mixinStandardHelpOptions = true, versionProvider = Legate.Version.class, description = "Show a task as the agent stores it (GetTask).")
    int get(@Parameters(paramLabel = "ID", description = "The task id.") String id,
            @Option(names = "--history", paramLabel = "N", description = "At most the last N messages of history.") Integer history) {
        return run((client, printer) -> {
            GetTaskRequest.Builder request = GetTaskRequest.newBuilder().setId(id);
            if (history != null) {
                request.setHistoryLength(history);
            }
            printer.task(client.getTask(request.build()));
            return ClientExit.OK.code();
        });
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true, versionProvider = Legate.Version.class, description = "Cancel a task (CancelTask) and show it.")
    int cancel(@Parameters(paramLabel = "ID", description = "The task id.") String id) {
        return run((client, printer) -> {
            printer.task(client.cancelTask(id));
            return ClientExit.OK.code();
        });
    }

    @Command(name = "list", mixinStandardHelpOptions = true, versionProvider = Legate.Version.class, description = "List tasks, newest first (ListTasks).")
    int list(@Option(names = "--context", paramLabel = "ID", description = "Only the tasks of this conversation.") String context,
             @Option(names = "--status", paramLabel = "STATE", description = "Only tasks in this state, e.g. completed or input-required.") String status,
             @Option(names = "--page-size", paramLabel = "N", description = "Tasks per page, 1-100 (agent default: 50).") Integer pageSize,
             @Option(names = "--page-token", paramLabel = "TOKEN", description = "The page after the one that gave this token.") String pageToken) {
        ListTasksRequest.Builder request = ListTasksRequest.newBuilder();
        if (status != null) {
            TaskState state = parseState(status);
            if (state == null) {
                return usage("--status must be a task state such as working, completed or input-required; got " + status);
            }
            request.setStatus(state);
        }
        if (context != null) {
            request.setContextId(context);
        }
        if (pageSize != null) {
            request.setPageSize(pageSize);
        }
        if (pageToken != null) {
            request.setPageToken(pageToken);
        }
        return run((client, printer) -> {
            printer.page(client.listTasks(request.build()));
            return ClientExit.OK.code();
        });
    }

    @Command(name = "card", mixinStandardHelpOptions = true, versionProvider = Legate.Version.class, description = "Show the agent's card and the interface the client dials.")
    int card(@Option(names = "--verify", description = "Check the card's signature: against --trust, or else against the "
            + "agent's own /.well-known/jwks.json (which proves the card intact, not who published it); exit 4 when it fails.")
             boolean verify) {
        return run((client, printer) -> {
            printer.card(client.card(), client.endpoint());
            client.cardVerdict().ifPresent(v -> printer.note("  " + v.describe()
                    + (trust != null ? " with " + trust : " with the agent's own JWKS (intact; pass --trust to check who signed it)")));
            return ClientExit.OK.code();
        }, verify);
    }

    @Command(name = "subscribe", mixinStandardHelpOptions = true, versionProvider = Legate.Version.class,
            description = "Follow a running task's events (SubscribeToTask) until its turn ends.")
    int subscribe(@Parameters(paramLabel = "ID", description = "The task id.") String id) {
        return run((client, printer) -> outcome(Turn.subscribe(client, id, printer)));
    }

    /** What a subcommand does with a connected client; returns the exit code. */
    @FunctionalInterface
    interface Action {
        int run(A2aClient client, EventPrinter printer);
    }

    int run(Action action) {
        return run(action, false);
    }

    /** Runs {@code action} on a client connected to the agent; {@code verifyCard} checks the card's signature even without --trust. */
    private int run(Action action, boolean verifyCard) {
        URI base = baseUrl();
        if (base == null) {
            return ClientExit.USAGE.code();
        }
        ClientConfig config = ClientConfig.defaults();
        if (binding != null && !binding.isBlank()) {
            try {
                config = config.withBindings(List.of(Binding.named(binding)));
            } catch (IllegalArgumentException e) {
                return usage("--binding " + e.getMessage());
            }
        }
        ClientTls tls;
        ClientCredentials oauthClient;
        try {
            tls = clientTls.tls();
            oauthClient = oauth.credentials();
        } catch (IllegalArgumentException e) {
            return usage(e.getMessage());
        }
        ClientTrust clientTrust = tls.trust();
        String keySource = trust != null ? trust : verifyCard ? base.resolve(JWKS_PATH).toString() : null;
        if (keySource != null) {
            try {
                clientTrust = clientTrust.withCardKeys(new CardVerifier(
                        TrustedKeys.load(keySource, clientTrust.tls(), config.cardTimeout())));
            } catch (IllegalArgumentException e) {
                return fail(keySource.matches("https?://.*") ? ClientExit.UNREACHABLE : ClientExit.USAGE,
                        "--trust " + e.getMessage());
            }
        }
        EventPrinter printer = new EventPrinter(spec.commandLine().getOut(), err(), json,
                json ? Palette.PLAIN : Palette.forTerminal(System.getenv()));
        Credentials credentials = new Credentials(token, apiKey);
        if (tls.presentsCertificate()) {
            credentials = credentials.withClientCertificate();
        }
        if (oauthClient != null) {
            credentials = credentials.withOAuthClient(oauthClient);
        }
        try (A2aClient client = A2aClient.connect(base, config.withTrust(clientTrust).withCredentials(credentials))) {
            String unmet = credentials.unmet(client.card());
            if (unmet != null) {
                err().println("legate client: " + unmet);
                err().flush();
            }
            return action.run(client, printer);
        } catch (A2aClientException e) {
            return switch (e) {
                case AgentErrorException a -> fail(ClientExit.AGENT_ERROR, "the agent answered " + a.getMessage());
                case TransportException t -> fail(ClientExit.UNREACHABLE, t.getMessage()
                        + (t.kind() == TransportException.Kind.CONNECT_FAILED ? " (is an agent running there? try legate agent)" : ""));
                case AgentCardException c -> fail(ClientExit.UNREACHABLE, c.getMessage());
                case InvalidResponseException i -> fail(ClientExit.UNREACHABLE, i.getMessage());
                // Refused as the agent's own refusal of a credential is (exit 3); unreachable as an agent is (4).
                case CredentialException c -> fail(c.getCause() instanceof IOException ? ClientExit.UNREACHABLE
                        : ClientExit.AGENT_ERROR, c.getMessage());
            };
        } catch (RuntimeException e) {
            return fail(ClientExit.TASK_UNFINISHED, "unexpected failure: " + e);
        }
    }

    private int outcome(Turn turn) {
        String problem = turn.problem();
        return problem == null ? ClientExit.OK.code() : fail(ClientExit.TASK_UNFINISHED, problem);
    }

    private URI baseUrl() {
        String raw = url != null ? url : agentUrl;
        try {
            URI uri = new URI(raw.strip());
            if (uri.getScheme() != null && uri.getScheme().matches("https?") && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        usage("the agent URL must be an absolute http(s) URL, got " + raw);
        return null;
    }

    /** {@code completed}, {@code input-required}, {@code INPUT_REQUIRED} or {@code TASK_STATE_INPUT_REQUIRED}. */
    static TaskState parseState(String text) {
        String name = text.strip().toUpperCase(Locale.ROOT).replace('-', '_').replace(' ', '_');
        try {
            TaskState s = TaskState.valueOf(name.startsWith("TASK_STATE_") ? name : "TASK_STATE_" + name);
            return s == TaskState.UNRECOGNIZED ? null : s;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    int usage(String message) {
        return fail(ClientExit.USAGE, message);
    }

    private int fail(ClientExit code, String message) {
        PrintWriter err = err();
        err.println("legate client: " + message.replace('\n', ' '));
        err.flush();
        return code.code();
    }

    private PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
