package legate.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import legate.a2a.model.LegateVersion;
import legate.cli.log.JsonConsoleLogging;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code legate}: the one launcher; each part of the project is a subcommand.
 *
 * <p>The subcommands are registered in code, not in {@code @Command(subcommands)}, so that a start
 * builds only the subcommand it runs: picocli reads every registered command's annotations and
 * loads the types of its fields, and for {@code legate agent} the other four commands (the tap,
 * the client, the bridge, MCP) cost about 300 ms of a 1.6 s start on two cores.
 */
@Command(name = "legate",
        mixinStandardHelpOptions = true,
        versionProvider = Legate.Version.class,
        description = "Gives coding agents an A2A v1.0 address, tasks that outlive a call, and a supervisor.")
public final class Legate implements Runnable {
    /** In the order the usage lists them. */
    static final List<String> SUBCOMMANDS = List.of("agent", "tap", "client", "push-receiver", "bridge", "mcp", "service", "doctor",
            "help");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** text (Jetty's one-line format, the default) or json (one JSON object per line). */
    static final String LOG_FORMAT = "LOG_FORMAT";

    public static void main(String[] args) {
        // Jetty's MemoryUtils asks the platform MBean server whether oops are compressed, to size
        // the padding of its queues; that starts JMX (about 250 classes and JFR's command table)
        // before the first request. 16 references per 64-byte line is exact for compressed oops
        // (heaps under 32 GiB) and only pads more than needed otherwise.
        if (System.getProperty("org.eclipse.jetty.util.referencesPerCacheLine") == null) {
            System.setProperty("org.eclipse.jetty.util.referencesPerCacheLine", "16");
        }
        // DEFECT (issue 30): the start-up archive's training run read the user's environment and .env
        // like a real start, so bin/legate's first start after a build wrote its ~250 scripted tasks
        // into DATA_DIR (or the PostgreSQL of DATABASE_URL). It reads no setting at all now.
        Settings settings = List.of(args).contains(AgentCommand.TRAINING_FLAG) ? Settings.NONE
                : Settings.load(Path.of(""), System.getenv());
        // Before anything asks for a logger: SLF4J picks its binding once.
        String logFormat = settings.get(LOG_FORMAT).orElse("text").strip();
        if (logFormat.equalsIgnoreCase("json")) {
            JsonConsoleLogging.install();
        } else if (!logFormat.equalsIgnoreCase("text") && !logFormat.isEmpty()) {
            System.err.println("legate: LOG_FORMAT must be text or json, got " + logFormat);
            System.exit(2);
        }
        if (args.length > 0 && args[0].equals("agent")) {
            AgentCommand.prepareInBackground();
        }
        if (args.length == 1 && args[0].equals("agent")) {
            AgentCommand agent = AgentCommand.fromSettings(settings);
            if (agent != null) {
                System.exit(run(agent));
            }
        }
        System.exit(commandLine(settings, args).execute(args));
    }

    /** What picocli's execute does with a command's result: its exit code, 2 after a usage error, or 1 after the stack trace. */
    private static int run(AgentCommand agent) {
        try {
            return agent.call();
        } catch (CommandLine.ParameterException e) {
            System.err.println("legate agent: " + e.getMessage());
            return 2;
        } catch (Exception e) {
            e.printStackTrace();
            return 1;
        }
    }

    /** Every subcommand, as {@code legate --help} lists them. */
    static CommandLine commandLine(Settings settings) {
        return commandLine(settings, new String[0]);
    }

    /**
     * Only the subcommand that {@code args} names when it names one (other than help), every
     * subcommand otherwise, so usage, {@code help X} and the "did you mean" of a typo are unchanged.
     */
    static CommandLine commandLine(Settings settings, String[] args) {
        CommandLine cl = new CommandLine(new Legate());
        String only = args.length > 0 && SUBCOMMANDS.contains(args[0]) && !args[0].equals("help") ? args[0] : null;
        for (String name : SUBCOMMANDS) {
            if (only == null || only.equals(name)) {
                cl.addSubcommand(name, subcommand(name, settings));
            }
        }
        // Both settings reach only the subcommands registered so far (picocli), hence after them.
        cl.setDefaultValueProvider(new SettingsDefaults(settings));
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return cl;
    }

    private static Object subcommand(String name, Settings settings) {
        return switch (name) {
            case "agent" -> new AgentCommand();
            case "tap" -> new TapCommand();
            case "client" -> new ClientCommand();
            case "push-receiver" -> new PushReceiverCommand();
            case "bridge" -> new BridgeCommand(settings.fromDotenvOnly(), SettingKeys::all);
            case "mcp" -> new McpCommand();
            case "service" -> new ServiceCommand();
            case "doctor" -> new DoctorCommand();
            case "help" -> new CommandLine.HelpCommand();
            default -> throw new IllegalArgumentException("no subcommand " + name);
        };
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"legate " + LegateVersion.get() + " (A2A 1.0)"};
        }
    }
}
