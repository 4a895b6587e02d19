package legate.acp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Checks on real processes, by pid, as the operating system sees them. */
public final class ProcessAssertions {
    private ProcessAssertions() {
    }

    /** Waits (at most 10 s) for the process to be gone. */
    public static void assertGone(long pid) throws Exception {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isPresent()) {
            try {
                h.get().onExit().get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError("process " + pid + " is still alive 10 s later");
            }
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("process %d alive", pid).isFalse();
    }

    public static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
