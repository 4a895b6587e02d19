import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A process the harness started (a server, the tap, a load generator), known by its PID, and the
 * figures the harness reads about a process tree from /proc: resident memory (sum of VmRSS), threads
 * and CPU time. Every process started here is stopped by its own PID, never by name: SIGTERM, a grace
 * period, then SIGKILL, and the same for any descendant still alive; a shutdown hook stops whatever
 * is left when the harness itself is interrupted.
 */
final class Proc {
    private static final List<Proc> LIVE = new CopyOnWriteArrayList<>();
    static final long CLK_TCK = 100;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Proc p : LIVE) {
                p.stop();
            }
        }, "bench-cleanup"));
    }

    final String name;
    final Process process;
    final long spawnNanos;
    final Path log;
    int port;

    private Proc(String name, Process process, long spawnNanos, Path log) {
        this.name = name;
        this.process = process;
        this.spawnNanos = spawnNanos;
        this.log = log;
    }

    /** Starts {@code command} in {@code cwd}; stdout and stderr go to {@code log}, or nowhere when it is null. */
    static Proc start(String name, List<String> command, Map<String, String> env, Path cwd, Path log)
            throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile());
        pb.environment().clear();
        pb.environment().putAll(env);
        pb.redirectInput(ProcessBuilder.Redirect.PIPE);
        if (log == null) {
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        } else {
            Files.createDirectories(log.getParent());
            pb.redirectErrorStream(true);
            pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        }
        long t0 = System.nanoTime();
        Process p = pb.start();
        Proc proc = new Proc(name, p, t0, log);
        LIVE.add(proc);
        return proc;
    }

    /** Takes charge of a process started elsewhere (a load generator whose stdout the caller reads). */
    static Proc wrap(String name, Process process) {
        Proc proc = new Proc(name, process, System.nanoTime(), null);
        LIVE.add(proc);
        return proc;
    }

    long pid() {
        return process.pid();
    }

    /** SIGTERM to the process, then SIGKILL after a grace period; then the same for descendants left behind. */
    void stop() {
        List<ProcessHandle> tree = new ArrayList<>();
        process.toHandle().descendants().forEach(tree::add);
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        for (ProcessHandle h : tree) {
            if (h.isAlive()) {
                h.destroy();
                try {
                    h.onExit().get(5, TimeUnit.SECONDS);
                } catch (Exception e) {
                    h.destroyForcibly();
                }
            }
        }
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // the process is gone
        }
        LIVE.remove(this);
    }

    /** The last lines of the log, for a message when a server would not start. */
    String logTail() {
        if (log == null || !Files.exists(log)) {
            return "(no log)";
        }
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(log unreadable: " + e + ")";
        }
    }

    /**
     * Polls {@code GET /.well-known/agent-card.json} on 127.0.0.1:port every millisecond until it answers
     * 200, and returns {@link System#nanoTime()} at that answer. Fails when the process exits first or
     * the timeout passes.
     */
    long awaitCard(int port, Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        byte[] get = ("GET /.well-known/agent-card.json HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nA2A-Version: 1.0\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException(name + " exited with " + process.exitValue() + " before serving its card:\n"
                        + logTail());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
                s.setSoTimeout(5000);
                OutputStream out = s.getOutputStream();
                out.write(get);
                out.flush();
                InputStream in = s.getInputStream();
                byte[] head = in.readNBytes(12);
                long now = System.nanoTime();
                if (new String(head, StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200")) {
                    return now;
                }
            } catch (IOException notYet) {
                // not listening yet, or not serving yet
            }
            Thread.sleep(1);
        }
        throw new IOException(name + " did not serve its card within " + timeout.toSeconds() + " s:\n" + logTail());
    }

    /** Resident memory, threads, CPU ticks and open files summed over a process and its descendants. */
    record Tree(long rssKiB, long threads, long cpuTicks, long fds, int processes) {
        double rssMiB() {
            return rssKiB / 1024.0;
        }
    }

    Tree tree() {
        return tree(process.toHandle());
    }

    static Tree tree(ProcessHandle root) {
        List<Long> pids = new ArrayList<>();
        pids.add(root.pid());
        root.descendants().forEach(h -> pids.add(h.pid()));
        long rss = 0, threads = 0, ticks = 0, fds = 0;
        int n = 0;
        for (long pid : pids) {
            String status = read("/proc/" + pid + "/status");
            if (status == null) {
                continue;
            }
            n++;
            rss += statusField(status, "VmRSS:");
            threads += statusField(status, "Threads:");
            ticks += cpuTicks(pid);
            String[] fd = new java.io.File("/proc/" + pid + "/fd").list();
            fds += fd == null ? 0 : fd.length;
        }
        return new Tree(rss, threads, ticks, fds, n);
    }

    /** utime + stime of one process (all its threads), in clock ticks. */
    static long cpuTicks(long pid) {
        String[] f = statFields("/proc/" + pid + "/stat");
        return f == null ? 0 : Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }

    /** CPU ticks of this JVM's children that have exited and been reaped (cutime + cstime of /proc/self). */
    static long reapedChildrenTicks() {
        String[] f = statFields("/proc/self/stat");
        return f == null ? 0 : Long.parseLong(f[13]) + Long.parseLong(f[14]);
    }

    /** The fields of a /proc stat line after the command name: index 0 is the state, 11 utime, 12 stime. */
    private static String[] statFields(String path) {
        String s = read(path);
        if (s == null) {
            return null;
        }
        return s.substring(s.lastIndexOf(')') + 2).trim().split("\\s+");
    }

    private static long statusField(String status, String key) {
        for (String line : status.split("\n")) {
            if (line.startsWith(key)) {
                String[] p = line.substring(key.length()).trim().split("\\s+");
                return Long.parseLong(p[0]);
            }
        }
        return 0;
    }

    static String read(String path) {
        try {
            return Files.readString(Path.of(path), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return null;
        }
    }

    /** A port that was free a moment ago on 127.0.0.1. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress("127.0.0.1", 0));
            return s.getLocalPort();
        }
    }

    /** Runs a short command to completion (bounded) and returns its output, or null when it failed. */
    static String capture(List<String> command, Path cwd, int timeoutS) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true);
            pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            Process p = pb.start();
            byte[] out;
            try (InputStream in = p.getInputStream()) {
                Thread killer = Thread.ofVirtual().start(() -> {
                    try {
                        if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
                            p.destroyForcibly();
                        }
                    } catch (InterruptedException ignored) {
                        p.destroyForcibly();
                    }
                });
                out = in.readAllBytes();
                killer.join();
            }
            return p.waitFor() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
        } catch (IOException | InterruptedException e) {
            return null;
        }
    }
}
