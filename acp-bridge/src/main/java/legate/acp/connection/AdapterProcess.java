package legate.acp.connection;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * An agent's child process and everything it started. Stopping it takes the whole tree, in the
 * order an agent is most likely to honour: close stdin, wait, SIGTERM, wait, SIGKILL.
 */
public final class AdapterProcess {
    private final Process process;
    private final AdapterCommand command;
    /** Every descendant ever seen, so a child that outlives its parent is still found. */
    private final Set<ProcessHandle> seen = new LinkedHashSet<>();

    public AdapterProcess(Process process, AdapterCommand command) {
        this.process = process;
        this.command = command;
    }

    public static AdapterProcess start(ProcessLauncher launcher, AdapterCommand command, java.nio.file.Path cwd)
            throws IOException {
        return new AdapterProcess(launcher.launch(command, cwd), command);
    }

    public Process process() {
        return process;
    }

    public AdapterCommand command() {
        return command;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Completes with the exit status when the agent's own process ends. */
    public CompletableFuture<Integer> exited() {
        return process.onExit().thenApply(Process::exitValue);
    }

    /**
     * Stops the process and its descendants and returns its exit status (null if it could not be
     * killed, which only happens when the OS refuses).
     */
    public Integer stop(Duration grace) {
        remember();
        // PEER (claude-agent-acp, codex-acp): neither reliably exits on stdin EOF, so EOF is only the polite first step.
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // the pipe is already gone; the signals below still apply
        }
        waitFor(List.of(process.toHandle()), grace);
        remember();
        List<ProcessHandle> alive = alive();
        if (!alive.isEmpty()) {
            // PEER (codex-acp): a wrapper that does not forward signals orphans its child; signal every process in the tree.
            alive.forEach(ProcessHandle::destroy);
            waitFor(alive, grace);
            alive = alive();
            alive.forEach(ProcessHandle::destroyForcibly);
            waitFor(alive, Duration.ofSeconds(5));
        }
        return process.isAlive() ? null : process.exitValue();
    }

    private synchronized void remember() {
        process.toHandle().descendants().forEach(seen::add);
    }

    private synchronized List<ProcessHandle> alive() {
        List<ProcessHandle> out = new ArrayList<>();
        if (process.isAlive()) {
            out.add(process.toHandle());
        }
        for (ProcessHandle h : seen) {
            if (h.isAlive()) {
                out.add(h);
            }
        }
        return out;
    }

    private static void waitFor(List<ProcessHandle> handles, Duration timeout) {
        CompletableFuture<?>[] exits = handles.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(exits).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // the next, stronger step follows
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
