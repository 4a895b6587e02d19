package legate.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * The child processes of this JVM alive when a test began, so the ones the test left behind can be
 * told apart: every descendant, grandchildren included, as the operating system lists them.
 *
 * <p>It assumes one test at a time in the JVM (JUnit's default): a test running concurrently
 * would see the other's children as its own. A grandchild whose parent has already exited is
 * re-parented by the operating system and no longer listed here: tests that care about such a
 * process check it by pid.
 */
final class ProcessWatch {
    private static final int MAX_COMMAND_CHARS = 160;

    // ProcessHandle equality includes the start time, so a reused pid is a different process.
    private final Set<ProcessHandle> inherited;

    private ProcessWatch(Set<ProcessHandle> inherited) {
        this.inherited = inherited;
    }

    static ProcessWatch start() {
        return new ProcessWatch(ProcessHandle.current().descendants().collect(Collectors.toSet()));
    }

    /**
     * Waits up to {@code grace} for every descendant started since {@link #start()} to exit, then
     * kills the ones still alive (so the next test starts clean) and describes each of them.
     *
     * @return one line per leaked process; empty when none was left behind
     */
    List<String> leaked(Duration grace) {
        long deadline = System.nanoTime() + grace.toNanos();
        List<ProcessHandle> fresh = ProcessHandle.current().descendants().filter(h -> !inherited.contains(h)).toList();
        for (ProcessHandle h : fresh) {
            awaitExit(h, deadline);
        }
        List<String> leaks = new ArrayList<>();
        for (ProcessHandle h : fresh) {
            if (h.isAlive()) {
                leaks.add("child process " + h.pid() + " (" + describe(h) + ") was still alive " + grace.toSeconds()
                        + " s after the test; it has been killed");
                h.descendants().forEach(ProcessHandle::destroyForcibly);
                h.destroyForcibly();
            }
        }
        return leaks;
    }

    private static void awaitExit(ProcessHandle h, long deadline) {
        try {
            h.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // Still alive at the deadline: reported by the caller.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static String describe(ProcessHandle h) {
        String command = h.info().commandLine().or(() -> h.info().command()).orElse("command unknown");
        if (command.length() <= MAX_COMMAND_CHARS) {
            return command;
        }
        // The head names the program, the tail its main class and arguments; a class path between them is noise.
        int half = MAX_COMMAND_CHARS / 2;
        return command.substring(0, half) + " … " + command.substring(command.length() - half);
    }
}
