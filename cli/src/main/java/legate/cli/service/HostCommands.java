package legate.cli.service;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The service manager's own commands ({@code systemctl}, {@code journalctl}, {@code loginctl},
 * {@code launchctl}, {@code tail}), found on the {@code PATH} of {@code env} and run with it. The
 * environment is the seam: a test puts a fake service manager first on its PATH.
 */
public record HostCommands(Map<String, String> env) {
    /** How long a manager's command may take before it counts as failed. */
    static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** What a finished command printed (stdout and stderr together) and its exit status. */
    public record Result(int exit, String output) {
        boolean ok() {
            return exit == 0;
        }
    }

    /** Whether {@code name} is an executable on the PATH. */
    public boolean available(String name) {
        return find(name) != null;
    }

    /** The executable {@code name} on the PATH, as a shell would find it. */
    public Optional<Path> which(String name) {
        return Optional.ofNullable(find(name));
    }

    private Path find(String name) {
        for (String dir : env.getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p) && !Files.isDirectory(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    /** Runs to completion (bounded), capturing the output. A missing command is exit 127, as a shell says. */
    public Result run(List<String> command) {
        Path exe = find(command.get(0));
        if (exe == null) {
            return new Result(127, command.get(0) + ": not found on PATH");
        }
        try {
            Process p = builder(exe, command).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            byte[] out;
            try (InputStream in = p.getInputStream()) {
                out = in.readNBytes(1 << 20);
            }
            if (!p.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(124, command.get(0) + " did not finish within " + TIMEOUT.toSeconds() + " s");
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8).strip());
        } catch (IOException e) {
            return new Result(126, command.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(130, command.get(0) + ": interrupted");
        }
    }

    /** Runs with this process's terminal (a log followed with {@code -f}); its exit status. */
    public int attach(List<String> command) throws InterruptedException {
        Path exe = find(command.get(0));
        if (exe == null) {
            System.err.println("legate service: " + command.get(0) + " is not on PATH");
            return 127;
        }
        try {
            return builder(exe, command).inheritIO().start().waitFor();
        } catch (IOException e) {
            System.err.println("legate service: cannot run " + command.get(0) + ": " + e.getMessage());
            return 126;
        }
    }

    private ProcessBuilder builder(Path exe, List<String> command) {
        List<String> resolved = new ArrayList<>(command);
        resolved.set(0, exe.toString());
        ProcessBuilder pb = new ProcessBuilder(resolved);
        pb.environment().clear();
        pb.environment().putAll(env);
        return pb;
    }
}
