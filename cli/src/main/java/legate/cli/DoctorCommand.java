package legate.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import legate.cli.doctor.Doctor;
import legate.cli.doctor.Finding;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code legate doctor}: whether a command can run here, and what to do when it cannot. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Check everything a command needs before running it: the JDK, Node.js, the bridge's adapter "
                + "(found, its version, logged in), the port, the task store (reachable, its schema version), the key "
                + "and token files. Reads the configuration as the command would; changes nothing.",
                "Exit status 0 when the command can run, 1 when a check failed."})
final class DoctorCommand implements Callable<Integer> {
    @Parameters(arity = "0..1", paramLabel = "agent|bridge|mcp", defaultValue = "agent",
            description = "The command to check (default: ${DEFAULT-VALUE}).")
    String command;

    @Override
    public Integer call() throws InterruptedException {
        if (!List.of("agent", "bridge", "mcp").contains(command)) {
            System.err.println("legate doctor: unknown command '" + command + "': agent, bridge or mcp");
            return 2;
        }
        Settings settings = Settings.load(Path.of(""), System.getenv());
        Doctor doctor = new Doctor(settings::get, System.getenv(), Path.of(System.getProperty("user.home")),
                BridgeCommand.adapterDirs());
        List<Finding> findings = doctor.examine(command);
        findings.forEach(f -> System.out.println(f.line()));
        long failed = findings.stream().filter(f -> f.verdict() == Finding.Verdict.FAIL).count();
        System.out.println(failed == 0 ? "legate " + command + " can run here."
                : "legate " + command + " cannot run here: " + failed + " check(s) failed.");
        return failed == 0 ? 0 : 1;
    }
}
