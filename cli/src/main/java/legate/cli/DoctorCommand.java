package legate.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import legate.cli.doctor.Doctor;
import legate.cli.doctor.Finding;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code legate doctor}: whether a command, or every one, can run here, and what to do when it cannot. */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = {"Check everything a command needs before running it: the JDK, Node.js, the bridge's adapter "
                + "(found, its version, logged in), the port, the task store (reachable, its schema version), the key "
                + "and token files. Reads the configuration as the command would; changes nothing.",
                "Without a command, checks every one (agent, bridge with each adapter, mcp), grouped by command, "
                        + "and ends with one line saying which can run here.",
                "Exit status 0 when the command (without one: every command) can run, 1 when a check failed."})
final class DoctorCommand implements Callable<Integer> {
    // No default: without a command, every one is checked.
    @Parameters(arity = "0..1", paramLabel = "agent|bridge|mcp",
            description = "The command to check (default: every one).")
    String command;

    @Override
    public Integer call() throws InterruptedException {
        if (command != null && !Doctor.COMMANDS.contains(command)) {
            System.err.println("legate doctor: unknown command '" + command + "': agent, bridge or mcp");
            return 2;
        }
        Settings settings = Settings.load(Path.of(""), System.getenv());
        Doctor doctor = new Doctor(settings::get, System.getenv(), Path.of(System.getProperty("user.home")),
                BridgeCommand.adapterDirs());
        if (command == null) {
            return everything(doctor.examineEverything());
        }
        List<Finding> findings = doctor.examine(command);
        findings.forEach(f -> System.out.println(f.line()));
        long failed = failed(findings);
        System.out.println(failed == 0 ? "legate " + command + " can run here."
                : "legate " + command + " cannot run here: " + failed + " check(s) failed.");
        return failed == 0 ? 0 : 1;
    }

    /** Each command's findings under its name, then the one line a newcomer reads: which commands can run here. */
    private static int everything(Map<String, List<Finding>> byCommand) {
        List<String> verdicts = new ArrayList<>();
        boolean all = true;
        for (Map.Entry<String, List<Finding>> e : byCommand.entrySet()) {
            System.out.println("legate " + e.getKey());
            e.getValue().forEach(f -> System.out.println("  " + f.line().replace("\n", "\n  ")));
            long failed = failed(e.getValue());
            all &= failed == 0;
            verdicts.add(failed == 0 ? e.getKey() + " can run" : e.getKey() + " cannot (" + failed + " check(s) failed)");
        }
        System.out.println((all ? "Legate can run here: " : "Legate cannot run everything here: ")
                + String.join("; ", verdicts) + ".");
        return all ? 0 : 1;
    }

    private static long failed(List<Finding> findings) {
        return findings.stream().filter(f -> f.verdict() == Finding.Verdict.FAIL).count();
    }
}
