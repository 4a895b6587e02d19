package legate.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A child process that is running: its output is read as it comes (both pipes, each on a virtual
 * thread), a test can wait for a line it prints or for its exit, and closing it ends it with
 * everything it started.
 */
public final class RunningChild implements AutoCloseable {
    /** How long a child gets to stop on SIGTERM before it and its descendants are killed. */
    static final Duration STOP_GRACE = Duration.ofSeconds(10);
    // A grandchild may keep a pipe open after the child exits; its output is not waited for longer.
    private static final Duration DRAIN_WAIT = Duration.ofSeconds(5);

    private final List<String> command;
    private final Process process;
    // Guarded by this.
    private final StringBuilder stdout = new StringBuilder();
    private final StringBuilder stderr = new StringBuilder();
    private final List<String> lines = new ArrayList<>();
    private int openPipes = 2;

    RunningChild(List<String> command, Process process) {
        this.command = command;
        this.process = process;
        Thread.ofVirtual().name("child-stdout-" + process.pid()).start(() -> drain(process.getInputStream(), stdout));
        Thread.ofVirtual().name("child-stderr-" + process.pid()).start(() -> drain(process.getErrorStream(), stderr));
    }

    public long pid() {
        return process.pid();
    }

    public Process process() {
        return process;
    }

    /** Everything printed so far: standard output, then standard error. */
    public synchronized String output() {
        return stdout.toString() + stderr;
    }

    /**
     * Waits for a line (on either pipe) in which {@code pattern} is found and returns the match;
     * fails with the output so far if the child closes its output first or the time runs out.
     */
    public synchronized Matcher awaitLine(Pattern pattern, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        int checked = 0;
        while (true) {
            for (; checked < lines.size(); checked++) {
                Matcher m = pattern.matcher(lines.get(checked));
                if (m.find()) {
                    return m;
                }
            }
            if (openPipes == 0) {
                throw new AssertionError(this + " ended its output without a line matching /" + pattern + "/"
                        + exitNote() + "; it printed:\n" + output());
            }
            waitUntil(deadline, () -> "no line matching /" + pattern + "/ from " + this + " within " + timeout
                    + "; it printed:\n" + output());
        }
    }

    /**
     * Waits for the child to exit and its output to be read. One still running after
     * {@code timeout} is killed with its descendants, and the test fails with what it printed.
     */
    public ChildRun awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                endTree(process.toHandle(), Duration.ZERO);
                throw new AssertionError(this + " did not finish within " + timeout
                        + "; it was killed with everything it started. It printed:\n" + output());
            }
            synchronized (this) {
                long deadline = System.nanoTime() + DRAIN_WAIT.toNanos();
                while (openPipes > 0 && System.nanoTime() < deadline) {
                    wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                }
                return new ChildRun(command, process.exitValue(), stdout.toString(), stderr.toString());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + this, e);
        }
    }

    /**
     * Ends the child and everything it started: SIGTERM, then SIGKILL after {@link #STOP_GRACE}.
     * A child that needed the SIGKILL fails the test: every Legate process stops on SIGTERM.
     */
    @Override
    public void close() {
        stop(STOP_GRACE);
    }

    void stop(Duration grace) {
        if (!endTree(process.toHandle(), grace)) {
            throw new AssertionError(this + " ignored SIGTERM for " + grace.toMillis() + " ms and was killed");
        }
    }

    /**
     * SIGTERM to {@code root} alone, so it may stop its own children in order; whatever of the
     * tree (as it was before the signal) is alive after {@code grace} gets SIGKILL.
     *
     * @return whether the root had exited (or was gone already) before the SIGKILL
     */
    static boolean endTree(ProcessHandle root, Duration grace) {
        // Taken first: once the root exits, its children are re-parented and no longer listed under it.
        List<ProcessHandle> tree = Stream.concat(root.descendants(), Stream.of(root)).toList();
        root.destroy();
        awaitExit(root, grace);
        boolean stoppedOnTerm = !root.isAlive();
        for (ProcessHandle h : tree) {
            if (h.isAlive()) {
                h.destroyForcibly();
            }
        }
        for (ProcessHandle h : tree) {
            awaitExit(h, STOP_GRACE);
        }
        return stoppedOnTerm;
    }

    private static void awaitExit(ProcessHandle h, Duration wait) {
        try {
            h.onExit().get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // Still alive: the caller kills it, or reports it.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void waitUntil(long deadline, Supplier<String> timedOut) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new AssertionError(timedOut.get());
        }
        try {
            wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + this, e);
        }
    }

    private String exitNote() {
        return process.isAlive() ? "" : " (exit status " + process.exitValue() + ")";
    }

    private void drain(InputStream in, StringBuilder into) {
        StringBuilder partial = new StringBuilder();
        char[] buffer = new char[8192];
        try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            int n;
            while ((n = r.read(buffer)) >= 0) {
                synchronized (this) {
                    into.append(buffer, 0, n);
                    for (int i = 0; i < n; i++) {
                        if (buffer[i] == '\n') {
                            lines.add(stripCr(partial));
                            partial.setLength(0);
                        } else {
                            partial.append(buffer[i]);
                        }
                    }
                    notifyAll();
                }
            }
        } catch (IOException e) {
            // The pipe closed with the process; what was read is what there is.
        } finally {
            synchronized (this) {
                if (!partial.isEmpty()) {
                    lines.add(stripCr(partial));
                }
                openPipes--;
                notifyAll();
            }
        }
    }

    private static String stripCr(StringBuilder line) {
        int end = line.length();
        return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
    }

    @Override
    public String toString() {
        String shown = String.join(" ", command);
        return "`" + (shown.length() > 200 ? shown.substring(0, 200) + "…" : shown) + "` (pid " + process.pid() + ")";
    }
}
