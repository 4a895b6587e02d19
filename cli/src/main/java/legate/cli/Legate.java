package legate.cli;

import java.nio.file.Path;
import legate.a2a.model.LegateVersion;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code legate}: the one launcher; each part of the project is a subcommand. */
@Command(name = "legate",
        mixinStandardHelpOptions = true,
        versionProvider = Legate.Version.class,
        description = "Gives coding agents an A2A v1.0 address, tasks that outlive a call, and a supervisor.",
        subcommands = {AgentCommand.class, TapCommand.class, ClientCommand.class, BridgeCommand.class, McpCommand.class, CommandLine.HelpCommand.class})
public final class Legate implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
        System.exit(commandLine(Settings.load(Path.of(""), System.getenv())).execute(args));
    }

    static CommandLine commandLine(Settings settings) {
        CommandLine cl = new CommandLine(new Legate());
        cl.setDefaultValueProvider(new SettingsDefaults(settings));
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        return cl;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"legate " + LegateVersion.get() + " (A2A 1.0)"};
        }
    }
}
