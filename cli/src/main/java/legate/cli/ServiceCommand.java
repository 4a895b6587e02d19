package legate.cli;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import legate.cli.service.HostCommands;
import legate.cli.service.ServiceEnvironment;
import legate.cli.service.ServiceKind;
import legate.cli.service.ServiceLayout;
import legate.cli.service.ServicePlatform;
import legate.cli.service.Services;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code legate service}: install Legate's servers as the user's own services (systemd on Linux, launchd on macOS). */
@Command(name = "service", mixinStandardHelpOptions = true,
        description = {"Run legate agent, bridge or mcp as a service of your own user: started at login (or boot, "
                + "with lingering), started again after a failure, stopped with SIGTERM.",
                "Linux: systemd user units in ~/.config/systemd/user; macOS: LaunchAgents. Each service gets a "
                + "working folder with its own .env (mode 600), copied from your configuration at install."},
        subcommands = {ServiceCommand.Install.class, ServiceCommand.Start.class, ServiceCommand.Stop.class,
                ServiceCommand.Restart.class, ServiceCommand.Status.class, ServiceCommand.Logs.class,
                ServiceCommand.Uninstall.class, ServiceCommand.Token.class})
final class ServiceCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** The services of this machine's user, or null (after saying why) when the platform has no manager Legate knows. */
    static Services services() {
        ServicePlatform platform = ServicePlatform.current();
        if (platform == null) {
            System.err.println("legate service: " + System.getProperty("os.name")
                    + " is not supported; services are systemd user units (Linux) or LaunchAgents (macOS)");
            return null;
        }
        Path launcher = launcher();
        if (launcher == null) {
            System.err.println("legate service: cannot find bin/legate beside this jar; run it from a Legate checkout");
            return null;
        }
        Map<String, String> env = System.getenv();
        HostCommands host = new HostCommands(env);
        String uid = platform == ServicePlatform.LAUNCHD ? host.run(List.of("id", "-u")).output() : "";
        ServiceLayout layout = ServiceLayout.forUser(platform, launcher, env, Path.of(System.getProperty("user.home")));
        return new Services(platform, layout, host, System.getProperty("user.name"), uid, Settings::parseDotenv,
                System.out, System.err);
    }

    /** {@code bin/legate} of the checkout this code runs from: the jar, or the classes folder in a build. */
    static Path launcher() {
        try {
            Path here = Path.of(Legate.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path p = here; p != null; p = p.getParent()) {
                Path candidate = p.resolve("bin/legate");
                if (Files.isExecutable(candidate)) {
                    return candidate.toAbsolutePath().normalize();
                }
            }
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            // No code source to start from.
        }
        return null;
    }

    /** Every configuration key a Legate command reads: the bracketed names in its options' help. */
    static Set<String> legateKeys() {
        Set<String> keys = new TreeSet<>();
        CommandLine all = Legate.commandLine(new Settings(Map.of(), Map.of()));
        for (CommandLine sub : all.getSubcommands().values()) {
            for (CommandLine.Model.OptionSpec o : sub.getCommandSpec().options()) {
                if (o.descriptionKey() != null && !o.descriptionKey().isEmpty()) {
                    keys.add(o.descriptionKey());
                }
            }
        }
        return keys;
    }

    static List<ServiceKind> kinds(List<String> names) {
        List<ServiceKind> out = new ArrayList<>();
        for (String n : names) {
            try {
                out.add(ServiceKind.parse(n));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(new CommandLine(new ServiceCommand()), e.getMessage());
            }
        }
        return out;
    }

    @Command(name = "install", mixinStandardHelpOptions = true,
            description = {"Install and start a service: agent (the default), bridge or mcp.",
                    "Its .env is your .env in this folder plus the Legate keys set in your environment; secrets stay "
                    + "there (mode 600), never in the unit. Installing again updates it."})
    static final class Install implements Callable<Integer> {
        @Parameters(arity = "0..1", paramLabel = "agent|bridge|mcp", defaultValue = "agent")
        String kind;

        @Option(names = "--backend", paramLabel = "claude|codex",
                description = "The bridge's coding agent (ACP_AGENT in its .env).")
        String backend;

        @Option(names = "--with-mcp", description = "Also install legate mcp, publishing this agent or bridge.")
        boolean withMcp;

        @Override
        public Integer call() throws IOException {
            List<ServiceKind> kinds = kinds(List.of(kind));
            if (backend != null && !backend.equals("claude") && !backend.equals("codex")) {
                System.err.println("legate service install: --backend is claude or codex");
                return 2;
            }
            if (backend != null && kinds.get(0) != ServiceKind.BRIDGE) {
                System.err.println("legate service install: --backend applies to the bridge only");
                return 2;
            }
            Services services = services();
            if (services == null) {
                return 1;
            }
            Path dotenv = Path.of(".env");
            Map<String, String> file = Files.isRegularFile(dotenv)
                    ? Settings.parseDotenv(Files.readString(dotenv, StandardCharsets.UTF_8)) : Map.of();
            ServiceEnvironment source = ServiceEnvironment.from(file, System.getenv(), legateKeys());
            return services.install(kinds, backend, withMcp, source, ServiceEnvironment.unitVariables(System.getenv()));
        }
    }

    @Command(name = "start", mixinStandardHelpOptions = true, description = "Start the installed services (or those named).")
    static final class Start implements Callable<Integer> {
        @Parameters(arity = "0..*", paramLabel = "agent|bridge|mcp")
        List<String> names = new ArrayList<>();

        @Override
        public Integer call() {
            Services s = services();
            return s == null ? 1 : s.start(kinds(names));
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, description = "Stop the installed services (or those named).")
    static final class Stop implements Callable<Integer> {
        @Parameters(arity = "0..*", paramLabel = "agent|bridge|mcp")
        List<String> names = new ArrayList<>();

        @Override
        public Integer call() {
            Services s = services();
            return s == null ? 1 : s.stop(kinds(names));
        }
    }

    @Command(name = "restart", mixinStandardHelpOptions = true,
            description = "Restart the installed services (or those named), e.g. after editing their .env.")
    static final class Restart implements Callable<Integer> {
        @Parameters(arity = "0..*", paramLabel = "agent|bridge|mcp")
        List<String> names = new ArrayList<>();

        @Override
        public Integer call() {
            Services s = services();
            return s == null ? 1 : s.restart(kinds(names));
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = {"The service manager's view of each service beside live checks: the card answers; the "
                    + "MCP endpoint answers 401 without the token and 200 with it.",
                    "Exit status 0 when every check passes, 3 when one fails."})
    static final class Status implements Callable<Integer> {
        @Parameters(arity = "0..*", paramLabel = "agent|bridge|mcp")
        List<String> names = new ArrayList<>();

        @Override
        public Integer call() throws IOException, InterruptedException {
            Services s = services();
            return s == null ? 1 : s.status(kinds(names));
        }
    }

    @Command(name = "logs", mixinStandardHelpOptions = true,
            description = "The last 200 lines of a service's output (journalctl on Linux, its log file on macOS).")
    static final class Logs implements Callable<Integer> {
        @Parameters(arity = "0..1", paramLabel = "agent|bridge|mcp")
        String name;

        @Option(names = {"-f", "--follow"}, description = "Keep printing new lines.")
        boolean follow;

        @Override
        public Integer call() throws InterruptedException {
            Services s = services();
            return s == null ? 1
                    : s.logs(Optional.ofNullable(name).map(n -> kinds(List.of(n)).get(0)), follow);
        }
    }

    @Command(name = "uninstall", mixinStandardHelpOptions = true,
            description = "Stop and remove the services (or those named); their data stays unless --purge.")
    static final class Uninstall implements Callable<Integer> {
        @Parameters(arity = "0..*", paramLabel = "agent|bridge|mcp")
        List<String> names = new ArrayList<>();

        @Option(names = "--purge", description = "Also delete each service's working folder: its .env, data and logs.")
        boolean purge;

        @Override
        public Integer call() throws IOException {
            Services s = services();
            return s == null ? 1 : s.uninstall(kinds(names), purge);
        }
    }

    @Command(name = "token", mixinStandardHelpOptions = true,
            description = "How to connect an MCP client to the installed legate mcp: URL, token, .mcp.json block, "
                    + "claude mcp add line.")
    static final class Token implements Callable<Integer> {
        @Override
        public Integer call() throws IOException {
            Services s = services();
            return s == null ? 1 : s.token();
        }
    }
}
