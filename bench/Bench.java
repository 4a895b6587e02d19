import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The benchmark conductor that {@code bench/run} starts (bench/README.md): it runs the eight
 * workloads of bench/README.md against Legate's {@code agent} and the reference Revisor built on
 * {@code @a2a-js/sdk}, both started here on 127.0.0.1, in alternating order over rounds; it prints
 * the table, writes the raw figures to {@code bench/results/} and, for a full run, the table to
 * {@code docs/benchmarks.md}.
 *
 * <p>One file holds the workloads in the order they run, so the whole measurement plan reads top to
 * bottom; processes and /proc live in {@link Proc}, the table in {@link Report}, the stream client in
 * {@code SseLoad}, the request/response load in wrk with {@code a2a.lua}.
 */
public final class Bench {
    enum Kind {
        LEGATE("legate", "Legate"), LEGATE_JAR("legate-jar", "Legate (java -jar)"), REFERENCE("reference", "reference"),
        MEMORY("legate-memory", "Legate, memory store"), SQLITE("legate-sqlite", "Legate, SQLite store"),
        POSTGRES("legate-postgres", "Legate, PostgreSQL store");

        final String id, label;

        Kind(String id, String label) {
            this.id = id;
            this.label = label;
        }
    }

    static final int[] SEND_CONCURRENCY = {1, 16, 64};
    static final Set<String> SCRUBBED_ENV = Set.of("HOST", "PORT", "PUBLIC_URL", "AGENT_NAME", "STEP_DELAY_MS",
            "MAX_BODY_BYTES", "TAP_HOST", "TAP_PORT", "TARGET_URL", "TAP_LOG", "TAP_WEB", "TAP_WEB_PORT", "TAP_WEB_HOST",
            "ACP_AGENT_CMD", "FLOOD_CHUNKS", "FLOOD_REPORT", "MAX_TASKS_PER_PRINCIPAL", "MAX_STREAMS_PER_PRINCIPAL",
            "ACP_MAX_AGENTS",
            "A2A_TOKENS_FILE", "A2A_JWKS_URL", "A2A_JWT_KEY");
    static final Pattern TASK_ID = Pattern.compile("\"task\":\\{\"id\":\"([^\"]+)\"");
    static final Pattern TOKEN = Pattern.compile("w(\\d+),");

    final Options o;
    final Path root, run, logs, launcher, jar, classes;
    final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    final Report report = new Report();
    final Map<String, Object> raw = new LinkedHashMap<>();
    final String runTag = Long.toString(System.currentTimeMillis(), 36);
    final long started = System.nanoTime();
    int seq;

    Bench(Options o) {
        this.o = o;
        this.root = o.root;
        this.run = o.runDir;
        this.logs = run.resolve("logs");
        this.launcher = o.launcher;
        this.jar = o.jar;
        this.classes = o.classes;
    }

    public static void main(String[] args) throws Exception {
        Options o;
        try {
            o = Options.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench: " + e.getMessage() + " (bench/run --help lists the options)");
            System.exit(2);
            return;
        }
        System.exit(new Bench(o).run());
    }

    int run() throws Exception {
        Instant start = Instant.now();
        Map<String, Object> machine = machine();
        Map<String, Object> background = background();
        progress("machine: " + machine.get("cores") + " cores, " + machine.get("cpu") + "; other work before the run: "
                + background.get("busy_percent") + " % of the cores, load average " + background.get("loadavg"));
        Set<Integer> w = o.workloads;
        if (w.contains(1) || w.contains(2) || w.contains(3)) {
            core(w.contains(1), w.contains(2), w.contains(3));
        }
        if (w.contains(4)) {
            held();
        }
        if (w.contains(5)) {
            cold();
        }
        if (w.contains(6)) {
            tap();
        }
        if (w.contains(7)) {
            bridge();
        }
        if (w.contains(8)) {
            tapWeb();
        }
        try {
            if (w.contains(9)) {
                stores();
            }
            if (w.contains(10)) {
                soak();
            }
        } finally {
            if (postgres != null) {
                postgres.stop();
            }
        }
        Instant end = Instant.now();

        Map<String, Object> results = new LinkedHashMap<>();
        results.put("started", start.toString());
        results.put("finished", end.toString());
        results.put("minutes", Math.round((System.nanoTime() - started) / 6e8) / 100.0);
        results.put("command", o.command);
        results.put("options", o.json());
        results.put("machine", machine);
        results.put("background", background);
        results.put("loadavg_at_end", loadavg());
        results.put("table", report.sections.stream().map(Report.Section::json).toList());
        results.put("raw", raw);
        Path dir = root.resolve("bench/results");
        Files.createDirectories(dir);
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(start)
                + (o.quick ? "-quick" : "");
        Path file = dir.resolve(stamp + ".json");
        String json = Json.write(results);
        Files.writeString(file, json, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("latest.json"), json, StandardCharsets.UTF_8);

        String generated = header(start, machine, background, root.relativize(file).toString()) + "\n"
                + report.markdown();
        System.out.println();
        System.out.println(generated);
        if (o.docs) {
            Report.writeDocs(root.resolve("docs/benchmarks.md"), generated);
            progress("the table is in docs/benchmarks.md");
        }
        progress("raw figures: " + root.relativize(file));
        return report.anyInvalid() ? 3 : 0;
    }

    // =============================================================================================
    // Workloads 1-3: SendMessage at 1/16/64, GetTask at 64, SendStreamingMessage at 16

    void core(boolean w1, boolean w2, boolean w3) throws Exception {
        Samples s = new Samples("core");
        for (int r = 0; r < o.rounds; r++) {
            for (Kind k : order(r, Kind.LEGATE, Kind.REFERENCE)) {
                Proc p = startAgent(k, 0, "core-r" + (r + 1));
                try {
                    String url = url(p.port);
                    List<Proc> servers = List.of(p);
                    // The JVM's compilers work for 10-20 s after a start on two cores; a figure taken
                    // sooner measures them. Both servers get the same warm-up on both kinds of call.
                    wrk(servers, url, 16, o.serverWarmup, "send", null);
                    if (w3) {
                        sse(servers, p.port, 16, Math.max(1, o.serverWarmup - 1), 1);
                    }
                    if (w1) {
                        for (int c : SEND_CONCURRENCY) {
                            wrk(servers, url, c, o.warmup, "send", null);
                            Map<String, Object> m = wrk(servers, url, c, o.duration, "send", null);
                            s.put("send-c" + c, k, r, m);
                            progress(roundLabel(r, k) + String.format(Locale.ROOT,
                                    "SendMessage c=%d: %.0f req/s, p50 %.2f ms, p99 %.2f ms%s", c, m.get("rps"),
                                    m.get("p50_ms"), m.get("p99_ms"), invalidNote(m)));
                        }
                    }
                    if (w2) {
                        String id = createTask(p.port);
                        wrk(servers, url, 64, o.warmup, "get", id);
                        Map<String, Object> m = wrk(servers, url, 64, o.duration, "get", id);
                        s.put("get-c64", k, r, m);
                        progress(roundLabel(r, k) + String.format(Locale.ROOT, "GetTask c=64: %.0f req/s, p99 %.2f ms%s",
                                m.get("rps"), m.get("p99_ms"), invalidNote(m)));
                    }
                    if (w3) {
                        Map<String, Object> m = sse(servers, p.port, 16);
                        s.put("stream-c16", k, r, m);
                        progress(roundLabel(r, k) + String.format(Locale.ROOT,
                                "SendStreamingMessage c=16: %.0f streams/s, first frame p99 %.2f ms%s",
                                m.get("streams_per_s"), m.get("ttff_p99_ms"), invalidNote(m)));
                    }
                    Map<String, Object> end = new LinkedHashMap<>();
                    Proc.Tree t = p.tree();
                    end.put("rss_mib", t.rssMiB());
                    end.put("threads", (double) t.threads());
                    end.put("valid", true);
                    s.put("end", k, r, end);
                } finally {
                    p.stop();
                }
            }
        }
        String rounds = rounds(o.rounds);
        if (w1) {
            Report.Section sec = report.section("1. SendMessage, blocking (" + rounds + ")", "Legate", "reference",
                    "Legate/reference");
            for (int c : SEND_CONCURRENCY) {
                String key = "send-c" + c;
                s.row(sec, key, "c=" + c + " requests/s", "rps", c == 64 ? Report.ratioAtLeast(8) : null);
                s.row(sec, key, "c=" + c + " p50 latency, ms", "p50_ms", null);
                s.row(sec, key, "c=" + c + " p99 latency, ms", "p99_ms", c == 64 ? Report.ratioAtMost(0.2) : null);
                s.row(sec, key, "c=" + c + " server CPU per request, µs", "cpu_us_per_req", null);
            }
            String ran = w3 ? (w2 ? "1-3" : "1 and 3") : w2 ? "1 and 2" : "1";
            s.row(sec, "end", "server RSS after workloads " + ran + ", MiB", "rss_mib", null);
            s.row(sec, "end", "server threads after workloads " + ran, "threads", null);
            sec.notes.add("wrk " + wrkVersion() + ", " + o.wrkThreads + " thread(s), bench/a2a.lua: every request a new "
                    + "messageId, every response checked (HTTP 200, COMPLETED, the exact statistics). " + o.duration
                    + " s per figure after " + o.warmup + " s of warm-up at the same concurrency; each server gets "
                    + o.serverWarmup + " s of SendMessage warm-up at c=16 after it starts (and as long again of streams when workload 3 runs). Server CPU = utime+stime of its process tree "
                    + "during the measured window.");
        }
        if (w2) {
            Report.Section sec = report.section("2. GetTask on a known id, c=64 (" + rounds + ")", "Legate",
                    "reference", "Legate/reference");
            s.row(sec, "get-c64", "requests/s", "rps", null);
            s.row(sec, "get-c64", "p50 latency, ms", "p50_ms", null);
            s.row(sec, "get-c64", "p99 latency, ms", "p99_ms", null);
            s.row(sec, "get-c64", "server CPU per request, µs", "cpu_us_per_req", null);
        }
        if (w3) {
            Report.Section sec = report.section("3. SendStreamingMessage, c=16 (" + rounds + ")", "Legate",
                    "reference", "Legate/reference");
            s.row(sec, "stream-c16", "streams/s", "streams_per_s", Report.ratioAtLeast(5));
            s.row(sec, "stream-c16", "time to first frame p50, ms", "ttff_p50_ms", null);
            s.row(sec, "stream-c16", "time to first frame p99, ms", "ttff_p99_ms", Report.ratioAtMost(0.2));
            s.row(sec, "stream-c16", "time to last frame p50, ms", "ttlf_p50_ms", null);
            s.row(sec, "stream-c16", "time to last frame p99, ms", "ttlf_p99_ms", null);
            s.row(sec, "stream-c16", "server CPU per stream, µs", "cpu_us_per_stream", null);
            sec.notes.add("bench/SseLoad.java (plain sockets, keep-alive): a stream counts when its first frame is the "
                    + "Task, one frame carries the exact statistics, the last is COMPLETED and the response ends "
                    + "cleanly; times run from writing the request.");
        }
    }

    // =============================================================================================
    // Workload 9: the task stores side by side

    void stores() throws Exception {
        Samples s = new Samples("stores");
        for (int r = 0; r < o.storeRounds; r++) {
            for (Kind k : order(r, Kind.MEMORY, Kind.SQLITE, Kind.POSTGRES, Kind.REFERENCE)) {
                Proc p = startAgent(k, 0, "stores-r" + (r + 1));
                try {
                    List<Proc> servers = k == Kind.POSTGRES ? List.of(p, postgres.server) : List.of(p);
                    String url = url(p.port);
                    wrk(servers, url, 16, o.serverWarmup, "send", null);
                    sse(servers, p.port, 16, Math.max(1, o.serverWarmup - 1), 1);
                    wrk(servers, url, 64, o.warmup, "send", null);
                    Map<String, Object> send = wrk(servers, url, 64, o.duration, "send", null);
                    s.put("send-c64", k, r, send);
                    Map<String, Object> streams = sse(servers, p.port, 16);
                    s.put("stream-c16", k, r, streams);
                    progress(roundLabel(r, k) + String.format(Locale.ROOT,
                            "SendMessage c=64: %.0f req/s, p99 %.2f ms%s; streams c=16: %.0f/s%s", send.get("rps"),
                            send.get("p99_ms"), invalidNote(send), streams.get("streams_per_s"), invalidNote(streams)));
                } finally {
                    p.stop();
                }
            }
        }
        String rounds = rounds(o.storeRounds);
        Report.Section mem = report.section("9. The task stores against the memory store (" + rounds + ")", "store",
                "memory", "store/memory");
        s.row(mem, "send-c64", Kind.SQLITE, Kind.MEMORY, "SQLite: SendMessage c=64, requests/s", "rps",
                Report.ratioAtLeast(0.5));
        s.row(mem, "send-c64", Kind.POSTGRES, Kind.MEMORY, "PostgreSQL: SendMessage c=64, requests/s", "rps", null);
        s.row(mem, "send-c64", Kind.SQLITE, Kind.MEMORY, "SQLite: SendMessage c=64, p99 ms", "p99_ms", null);
        s.row(mem, "send-c64", Kind.POSTGRES, Kind.MEMORY, "PostgreSQL: SendMessage c=64, p99 ms", "p99_ms", null);
        s.row(mem, "send-c64", Kind.SQLITE, Kind.MEMORY, "SQLite: server CPU per request, µs", "cpu_us_per_req", null);
        s.row(mem, "send-c64", Kind.POSTGRES, Kind.MEMORY, "PostgreSQL: server CPU per request, µs", "cpu_us_per_req",
                null);
        s.row(mem, "stream-c16", Kind.SQLITE, Kind.MEMORY, "SQLite: streams/s, c=16", "streams_per_s", null);
        s.row(mem, "stream-c16", Kind.POSTGRES, Kind.MEMORY, "PostgreSQL: streams/s, c=16", "streams_per_s", null);
        mem.notes.add("The same workloads as 1 and 3, one server per store in each round, each started on an empty "
                + "data folder or database. PostgreSQL is a local server of the machine's own distribution "
                + "(trust authentication over 127.0.0.1, default settings); its CPU counts as the server's.");
        Report.Section ref = report.section("9. The task stores against the reference (" + rounds + ")", "store",
                "reference", "store/reference");
        s.row(ref, "send-c64", Kind.SQLITE, Kind.REFERENCE, "SQLite: SendMessage c=64, requests/s", "rps",
                Report.ratioAtLeast(8));
        s.row(ref, "send-c64", Kind.POSTGRES, Kind.REFERENCE, "PostgreSQL: SendMessage c=64, requests/s", "rps", null);
        s.row(ref, "send-c64", Kind.MEMORY, Kind.REFERENCE, "memory: SendMessage c=64, requests/s", "rps", null);
    }

    // =============================================================================================
    // Workload 10: resident memory under a long load

    void soak() throws Exception {
        Samples s = new Samples("soak");
        Proc p = startAgent(Kind.LEGATE, 0, "soak");
        Map<String, Object> m = new LinkedHashMap<>();
        try {
            String url = url(p.port);
            List<Proc> servers = List.of(p);
            int total = o.soakMinutes * 60, first = Math.min(60, total);
            Map<String, Object> a = wrk(servers, url, 64, first, "send", null);
            double rss1 = p.tree().rssMiB();
            progress(String.format(Locale.ROOT, "soak: after %d s of SendMessage c=64 (%.0f req/s) RSS %.0f MiB", first,
                    a.get("rps"), rss1));
            Map<String, Object> b = total > first ? wrk(servers, url, 64, total - first, "send", null) : a;
            double rss5 = p.tree().rssMiB();
            progress(String.format(Locale.ROOT, "soak: after %d s (%.0f req/s) RSS %.0f MiB", total, b.get("rps"), rss5));
            boolean valid = Boolean.TRUE.equals(a.get("valid")) && Boolean.TRUE.equals(b.get("valid"));
            m.put("rss_first_mib", rss1);
            m.put("rss_end_mib", rss5);
            m.put("requests", num(a.get("requests")) + (b == a ? 0 : num(b.get("requests"))));
            m.put("valid", valid);
            if (!valid) {
                m.put("failures", num(a.getOrDefault("failures", 0.0)) + num(b.getOrDefault("failures", 0.0)));
                m.put("first_failure", a.get("valid") == Boolean.TRUE ? b.get("first_failure") : a.get("first_failure"));
            }
        } finally {
            p.stop();
        }
        s.put("soak", Kind.LEGATE, 0, m);
        Report.Section sec = report.section("10. Resident memory under " + o.soakMinutes + " minutes of SendMessage c=64 "
                + "(default store)", "at the end", "after 1 minute", "end/1 minute");
        Report.Row row = sec.row("server RSS, MiB");
        row.a.add(num(m.get("rss_end_mib")));
        row.b.add(num(m.get("rss_first_mib")));
        row.cmp.add(num(m.get("rss_end_mib")) / num(m.get("rss_first_mib")));
        row.target = Report.ratioAtMost(1.1);
        if (!Boolean.TRUE.equals(m.get("valid"))) {
            row.invalid = invalidNote(m).strip();
        }
        sec.notes.add(String.format(Locale.ROOT, "One server, %,.0f requests in all, every response checked; RSS of the "
                + "server's process tree read from /proc.", num(m.get("requests"))));
    }

    // =============================================================================================
    // Workload 4: held streams

    void held() throws Exception {
        long limit = fileLimit();
        Samples s = new Samples("held");
        List<Integer> levels = new ArrayList<>();
        for (int n : o.heldLevels) {
            if (limit > 0 && limit < n + 1000L) {
                progress("held streams: skipping " + n + ": ulimit -n is " + limit + " (needs " + (n + 1000) + ")");
                continue;
            }
            levels.add(n);
        }
        for (int n : levels) {
            for (int r = 0; r < o.heldRounds; r++) {
                for (Kind k : order(r, Kind.LEGATE, Kind.REFERENCE)) {
                    Map<String, Object> m = heldOnce(k, n, r);
                    s.put("held-" + n, k, r, m);
                    progress(roundLabel(r, k) + String.format(Locale.ROOT,
                            "%d held streams: %s opened in %.1f s, %.1f KiB/stream, RSS %.0f MiB, %s threads%s", n,
                            m.get("opened"), m.get("open_s"), m.get("kib_per_stream"), m.get("rss_open_mib"),
                            m.get("threads_open"), invalidNote(m)));
                }
            }
        }
        Report.Section sec = report.section("4. Held streams (" + rounds(o.heldRounds) + ", STEP_DELAY_MS="
                + o.heldStepDelayMs + ")", "Legate", "reference", "Legate/reference");
        for (int n : levels) {
            String key = "held-" + n;
            String lvl = String.format(Locale.ROOT, "%,d open: ", n);
            s.row(sec, key, lvl + "memory per stream, KiB", "kib_per_stream", n == 10_000 ? Report.ratioAtMost(0.5) : null);
            s.row(sec, key, lvl + "RSS, MiB", "rss_open_mib", null);
            s.row(sec, key, lvl + "threads", "threads_open", null);
            s.row(sec, key, lvl + "time to open all, s", "open_s", null);
        }
        sec.notes.add("A fresh server per level and round; bench/SseLoad.java --mode held opens the streams through one "
                + "selector, at most 256 waiting for their first frame at once. Memory per stream = (RSS of the server's "
                + "process tree with all streams open, 2 s after the last opened − RSS before, after a warm-up batch of "
                + "200 streams opened and closed) / streams. A level counts only if every stream opened and none was "
                + "dropped while held.");
        if (levels.size() < o.heldLevels.length) {
            sec.notes.add("Levels skipped: ulimit -n is " + limit + ".");
        }
    }

    Map<String, Object> heldOnce(Kind k, int n, int r) throws Exception {
        Proc p = startAgent(k, o.heldStepDelayMs, "held-" + n + "-r" + (r + 1));
        Proc client = null;
        Map<String, Object> m = new LinkedHashMap<>();
        try {
            ProcessBuilder pb = new ProcessBuilder(List.of(java, "-cp", classes.toString(), "SseLoad", "--mode", "held",
                    "--url", url(p.port), "--count", "" + n, "--window", "256", "--warmup", "200", "--open-timeout-s",
                    "" + o.heldOpenTimeoutS, "--hold-max-s", "" + (o.heldOpenTimeoutS + 120), "--tag", tag()))
                    .directory(run.toFile()).redirectError(ProcessBuilder.Redirect.appendTo(
                            logs.resolve("held-client.log").toFile()));
            client = Proc.wrap("held-client", pb.start());
            BlockingQueue<String> lines = lines(client.process);
            Map<String, Object> ready = awaitJson(lines, "BENCH_READY ", o.heldOpenTimeoutS + 30);
            Thread.sleep(1000);
            Proc.Tree base = p.tree();
            OutputStream cmd = client.process.getOutputStream();
            cmd.write("open\n".getBytes(StandardCharsets.US_ASCII));
            cmd.flush();
            Map<String, Object> open = awaitJson(lines, "BENCH_OPEN ", o.heldOpenTimeoutS + 30);
            Thread.sleep(2000);
            Proc.Tree held = p.tree();
            cmd.write("close\n".getBytes(StandardCharsets.US_ASCII));
            cmd.flush();
            Map<String, Object> closed = awaitJson(lines, "BENCH_CLOSED ", 60);
            Thread.sleep(1000);
            Proc.Tree after = p.tree();
            double opened = ((Number) open.get("opened")).doubleValue();
            double dropped = ((Number) closed.getOrDefault("dropped_while_held", 0.0)).doubleValue()
                    + ((Number) closed.getOrDefault("ended_while_held", 0.0)).doubleValue();
            double failed = ((Number) open.get("failed")).doubleValue();
            m.put("streams", n);
            m.put("opened", opened);
            m.put("failed", failed);
            m.put("dropped", dropped);
            m.put("open_s", ((Number) open.get("open_ms")).doubleValue() / 1000);
            m.put("rss_base_mib", base.rssMiB());
            m.put("rss_open_mib", held.rssMiB());
            m.put("rss_after_close_mib", after.rssMiB());
            m.put("kib_per_stream", opened > 0 ? (held.rssKiB() - base.rssKiB()) / opened : Double.NaN);
            m.put("threads_base", (double) base.threads());
            m.put("threads_open", (double) held.threads());
            m.put("threads_after_close", (double) after.threads());
            m.put("fds_open", (double) held.fds());
            m.put("processes", (double) held.processes());
            m.put("warmup", ready);
            m.put("failures", failed + dropped + (n - opened - failed));
            m.put("valid", opened == n && failed == 0 && dropped == 0);
            m.put("first_failure", open.get("first_failure"));
        } catch (Exception e) {
            m.put("valid", false);
            m.put("failures", (double) n);
            m.put("first_failure", e.toString());
        } finally {
            if (client != null) {
                client.stop();
            }
            p.stop();
        }
        return m;
    }

    // =============================================================================================
    // Workload 5: cold start

    void cold() throws Exception {
        Samples s = new Samples("cold");
        for (int r = 0; r < o.coldRounds; r++) {
            for (Kind k : order(r, Kind.LEGATE, Kind.REFERENCE, Kind.LEGATE_JAR)) {
                Map<String, Object> m = new LinkedHashMap<>();
                int port = Proc.freePort();
                Proc p = Proc.start(k.id, agentCommand(k), agentEnv(port, 0), run, logFor("cold-r" + (r + 1), k));
                try {
                    long ready = p.awaitCard(port, Duration.ofSeconds(60));
                    Proc.Tree t = p.tree();
                    m.put("ms", (ready - p.spawnNanos) / 1e6);
                    m.put("rss_mib", t.rssMiB());
                    m.put("threads", (double) t.threads());
                    m.put("valid", true);
                    progress(roundLabel(r, k) + String.format(Locale.ROOT, "cold start: first card after %.0f ms, RSS %.0f MiB",
                            m.get("ms"), m.get("rss_mib")));
                } catch (IOException e) {
                    m.put("valid", false);
                    m.put("failures", 1.0);
                    m.put("first_failure", e.getMessage());
                } finally {
                    p.stop();
                }
                s.put("cold", k, r, m);
                Thread.sleep(300);
            }
        }
        Report.Section sec = report.section("5. Cold start: spawn to the first 200 on the agent card (" + rounds(o.coldRounds)
                + ")", "Legate", "reference", "Legate/reference");
        s.row(sec, "cold", "time, ms (bin/legate)", "ms", Report.ratioAtMost(1.0));
        s.row(sec, "cold", Kind.LEGATE_JAR, Kind.REFERENCE, "time, ms (java -jar, no launcher)", "ms", null);
        s.row(sec, "cold", "RSS at that moment, MiB (bin/legate)", "rss_mib", null);
        s.row(sec, "cold", "threads at that moment (bin/legate)", "threads", null);
        sec.notes.add("bin/legate is the launcher users run (it finds a JDK, checks the jar is fresh, then execs java); "
                + "java -jar is the same JVM and flags without the launcher. The card is polled every millisecond.");
    }

    // =============================================================================================
    // Workload 6: the tap

    void tap() throws Exception {
        Proc agent = startAgent(Kind.LEGATE, 0, "tap-agent");
        Proc tap = null;
        Samples s = new Samples("tap");
        try {
            int port = Proc.freePort();
            Map<String, String> env = env(Map.of("TAP_PORT", "" + port, "TAP_HOST", "127.0.0.1", "TARGET_URL",
                    "http://127.0.0.1:" + agent.port, "NO_COLOR", "1"));
            // The tap prints every exchange; that output goes to /dev/null here.
            tap = Proc.start("tap", List.of(launcher.toString(), "tap", "--color", "never"), env, run, null);
            tap.port = port;
            tap.awaitCard(port, Duration.ofSeconds(90));
            List<Proc> servers = List.of(agent, tap);
            String direct = url(agent.port), through = url(port);
            wrk(servers, direct, 16, o.serverWarmup, "send", null);
            wrk(servers, through, 16, 2 * o.serverWarmup, "send", null);
            for (int r = 0; r < o.rounds; r++) {
                for (boolean viaTap : r % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    String url = viaTap ? through : direct;
                    wrk(servers, url, 16, o.warmup, "send", null);
                    Map<String, Object> m = wrk(servers, url, 16, o.duration, "send", null);
                    s.put("tap", viaTap ? Kind.LEGATE : Kind.REFERENCE, r, m);
                    progress(String.format(Locale.ROOT, "round %d %s: SendMessage c=16: %.0f req/s, p50 %.2f ms%s", r + 1,
                            viaTap ? "through the tap" : "direct", m.get("rps"), m.get("p50_ms"), invalidNote(m)));
                }
            }
        } finally {
            if (tap != null) {
                tap.stop();
            }
            agent.stop();
        }
        Report.Section sec = report.section("6. The tap: SendMessage c=16 through `legate tap` and direct (" + rounds(o.rounds)
                + ")", "through tap", "direct", "tap/direct");
        s.row(sec, "tap", "requests/s", "rps", Report.ratioAtLeast(0.9));
        Report.Row p50 = s.row(sec, "tap", "p50 latency, ms", "p50_ms", null);
        s.diff(p50, "tap");
        p50.target = new Report.Target(Report.On.CMP, false, 0.5, "≤ +0.5 ms");
        s.row(sec, "tap", "p99 latency, ms", "p99_ms", null);
        s.row(sec, "tap", "CPU per request (agent + tap), µs", "cpu_us_per_req", null);
        sec.notes.add("One agent and one tap for all rounds, the tap's output sent to /dev/null; warm-up: "
                + o.serverWarmup + " s direct, then " + 2 * o.serverWarmup + " s through the tap; the p50 row compares by difference (added latency), the "
                + "others by ratio. The agent, the tap and wrk share the machine's cores.");
    }

    // =============================================================================================
    // Workload 8: the tap with its web page open in a browser (tap-web)

    /**
     * The same SendMessage load as workload 6 through two taps in front of one agent, side by side in
     * alternating order: one plain, one with {@code --web} and a headless Chromium following its page
     * live. The page is fed by the listener thread, never by a forwarding thread, so the two should
     * forward alike; this measures it.
     */
    void tapWeb() throws Exception {
        Report.Section sec = report.section("8. The tap with its page open (tap-web): SendMessage c=16 through `legate tap --web` "
                + "with a browser connected, and through `legate tap` (" + rounds(o.rounds) + ")", "tap --web", "tap", "web/plain");
        String chromium = onPath("chromium", "chromium-browser", "google-chrome");
        if (chromium == null) {
            sec.notes.add("Not measured: no Chromium on the PATH (Debian's chromium package).");
            progress("tap-web: skipped, no Chromium on the PATH");
            return;
        }
        Proc agent = startAgent(Kind.LEGATE, 0, "tap-web-agent");
        List<Proc> procs = new ArrayList<>();
        Samples s = new Samples("tapweb");
        try {
            int plainPort = Proc.freePort(), webPort = Proc.freePort(), pagePort = Proc.freePort();
            Map<String, String> plainEnv = env(Map.of("TAP_PORT", "" + plainPort, "TAP_HOST", "127.0.0.1", "TARGET_URL",
                    "http://127.0.0.1:" + agent.port, "NO_COLOR", "1"));
            Map<String, String> webEnv = env(Map.of("TAP_PORT", "" + webPort, "TAP_HOST", "127.0.0.1", "TARGET_URL",
                    "http://127.0.0.1:" + agent.port, "NO_COLOR", "1", "TAP_WEB", "true", "TAP_WEB_PORT", "" + pagePort));
            Proc plain = Proc.start("tap", List.of(launcher.toString(), "tap", "--color", "never"), plainEnv, run, null);
            procs.add(plain);
            plain.port = plainPort;
            Proc web = Proc.start("tap-web", List.of(launcher.toString(), "tap", "--color", "never"), webEnv, run, null);
            procs.add(web);
            web.port = webPort;
            plain.awaitCard(plainPort, Duration.ofSeconds(90));
            web.awaitCard(webPort, Duration.ofSeconds(90));
            Proc browser = Proc.start("chromium", List.of(chromium, "--headless=new", "--no-sandbox", "--disable-gpu",
                    "--disable-dev-shm-usage", "--no-first-run", "--remote-debugging-port=0",
                    "--user-data-dir=" + run.resolve("chromium-profile"), url(pagePort)), env(Map.of()), run, null);
            procs.add(browser);
            awaitPage(pagePort, Duration.ofSeconds(60));
            List<Proc> servers = List.of(agent, web);
            List<Proc> plainServers = List.of(agent, plain);
            wrk(plainServers, url(plainPort), 16, 2 * o.serverWarmup, "send", null);
            wrk(servers, url(webPort), 16, 2 * o.serverWarmup, "send", null);
            for (int r = 0; r < o.rounds; r++) {
                for (boolean viaWeb : r % 2 == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
                    String url = url(viaWeb ? webPort : plainPort);
                    List<Proc> measured = viaWeb ? servers : plainServers;
                    wrk(measured, url, 16, o.warmup, "send", null);
                    long browser0 = ticks(List.of(browser));
                    Map<String, Object> m = wrk(measured, url, 16, o.duration, "send", null);
                    long browser1 = ticks(List.of(browser));
                    // The browser shares the cores too: what it spends following the page is part of the page's cost.
                    m.put("browser_cpu_us_per_req", num(m.get("requests")) > 0
                            ? (browser1 - browser0) * 1e6 / Proc.CLK_TCK / num(m.get("requests")) : Double.NaN);
                    s.put("tapweb", viaWeb ? Kind.LEGATE : Kind.REFERENCE, r, m);
                    progress(String.format(Locale.ROOT, "round %d %s: SendMessage c=16: %.0f req/s, p50 %.2f ms%s", r + 1,
                            viaWeb ? "through the tap with its page open" : "through the plain tap", m.get("rps"),
                            m.get("p50_ms"), invalidNote(m)));
                }
            }
            sec.notes.add("Pages following the inspector at the end: " + pages(pagePort) + ".");
        } finally {
            for (Proc p : procs.reversed()) {
                p.stop();
            }
            agent.stop();
        }
        s.row(sec, "tapweb", "requests/s", "rps", Report.ratioAtLeast(0.95));
        Report.Row p50 = s.row(sec, "tapweb", "p50 latency, ms", "p50_ms", null);
        s.diff(p50, "tapweb");
        s.row(sec, "tapweb", "p99 latency, ms", "p99_ms", null);
        s.row(sec, "tapweb", "CPU per request (agent + tap), µs", "cpu_us_per_req", null);
        s.row(sec, "tapweb", "Chromium's CPU per request, µs", "browser_cpu_us_per_req", null);
        sec.notes.add("One agent, two taps in front of it (one with --web and a headless Chromium on its page, one without), "
                + "measured in alternating order; the web tap's CPU includes its page server, not the browser's, which has a "
                + "row of its own (in the plain tap's column: the same browser while its page has no traffic). The agent, "
                + "both taps, the browser and wrk share the machine's cores.");
    }

    /** Waits until a browser follows the inspector page on {@code port} (its /status counts the pages). */
    void awaitPage(int port, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (pagesOrNone(port) < 1) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no browser followed the inspector page on port " + port + " within " + timeout);
            }
            Thread.sleep(200);
        }
    }

    /** The pages, or 0 while the inspector is not listening yet: the tap serves before its page does. */
    static int pagesOrNone(int port) throws Exception {
        try {
            return pages(port);
        } catch (IOException e) {
            return 0;
        }
    }

    static int pages(int port) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url(port) + "status"))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        Matcher m = Pattern.compile("\"pages\":(\\d+)").matcher(r.body());
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    static String onPath(String... names) {
        for (String name : names) {
            for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return p.toString();
                }
            }
        }
        return null;
    }

    // =============================================================================================
    // Workload 7: the bridge (HOOK: measured once `bin/legate bridge --agent-cmd` exists)

    void bridge() throws Exception {
        Report.Section sec = report.section("7. The bridge: an ACP agent streaming " + String.format(Locale.ROOT, "%,d",
                o.bridgeChunks) + " one-token chunks (" + rounds(o.bridgeRounds) + ")", "bridge", "", "");
        String help = Proc.capture(List.of(java, "-jar", jar.toString(), "bridge", "--help"), run, 60);
        if (help == null || !help.contains("--agent-cmd")) {
            // HOOK: for a build from before the bridge existed: until this build has `bridge --agent-cmd`
            // the workload only says so. Nothing else needs to change when it lands.
            Report.Row row = sec.row("bridge");
            row.note = "not yet available: this build has no `bin/legate bridge --agent-cmd`";
            raw.put("bridge", Map.of("available", false));
            progress("bridge: not yet available (no `bin/legate bridge --agent-cmd` in this build)");
            return;
        }
        Samples s = new Samples("bridge");
        int port = Proc.freePort();
        Path flood = run.resolve("flood.json");
        Path sandbox = Files.createDirectories(run.resolve("sandbox"));
        Map<String, String> env = env(Map.of("PORT", "" + port, "HOST", "127.0.0.1", "FLOOD_CHUNKS",
                "" + o.bridgeChunks, "FLOOD_REPORT", flood.toString(), "ACP_SANDBOX_DIR", sandbox.toString()));
        String agentCmd = "node " + root.resolve("bench/acp-flood.mjs");
        Proc p = Proc.start("bridge", List.of(launcher.toString(), "bridge", "--agent-cmd", agentCmd), env, run,
                logs.resolve(String.format("%03d-bridge.log", ++seq)));
        try {
            p.awaitCard(port, Duration.ofSeconds(90));
            // One flood first, not counted: the bridge's JIT compiles that path now, not inside a measured round.
            Map<String, Object> warm = flood(p, port, flood);
            progress("bridge warm-up flood: " + (Boolean.TRUE.equals(warm.get("valid")) ? "ok" : invalidNote(warm)));
            for (int r = 0; r < o.bridgeRounds; r++) {
                Map<String, Object> m = flood(p, port, flood);
                s.put("bridge", Kind.LEGATE, r, m);
                progress(String.format(Locale.ROOT, "round %d bridge: first frame %.2f ms after the first chunk, %.1f "
                                + "chunks per frame, %s lost, %.2f µs CPU per chunk%s", r + 1, m.get("first_frame_ms"),
                        m.get("chunks_per_frame"), m.get("lost"), m.get("cpu_us_per_chunk"), invalidNote(m)));
            }
        } catch (IOException e) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("valid", false);
            m.put("failures", 1.0);
            m.put("first_failure", e.getMessage());
            s.put("bridge", Kind.LEGATE, 0, m);
        } finally {
            p.stop();
        }
        s.absolute(sec, "bridge", "first chunk → first SSE frame, ms", "first_frame_ms",
                new Report.Target(Report.On.A, false, 5, "≤ 5 ms"));
        s.absolute(sec, "bridge", "frames/s", "frames_per_s", null);
        s.absolute(sec, "bridge", "chunks per frame", "chunks_per_frame", new Report.Target(Report.On.A, true, 10, "≥ 10"));
        s.absolute(sec, "bridge", "chunks lost", "lost", new Report.Target(Report.On.A, false, 0, "0"));
        s.absolute(sec, "bridge", "bridge CPU per chunk, µs", "cpu_us_per_chunk", null);
        sec.notes.add("bench/acp-flood.mjs writes the chunks (\"w<i>,\") as fast as the pipe takes them and notes the "
                + "time of the first; bench/SseLoad.java --mode trace stamps each SSE frame with the time the read that "
                + "brought it returned (both on the machine's monotonic clock). Frames = frames carrying at least one "
                + "token; CPU = utime+stime of the bridge's own process (its agent children excluded) during the stream. "
                + "One bridge for all rounds, after one flood not counted (JIT warm-up); each round is a new "
                + "conversation, so a new agent process.");
    }

    /** One SendStreamingMessage to the bridge while its ACP agent floods; the figures of that one stream. */
    Map<String, Object> flood(Proc p, int port, Path report) throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        Files.deleteIfExists(report);
        try {
            long cpu0 = Proc.cpuTicks(p.pid());
            List<String> out = capture(List.of(java, "-cp", classes.toString(), "SseLoad", "--mode", "trace", "--url",
                    url(port), "--text", "Stream " + o.bridgeChunks + " tokens, please.", "--timeout-ms", "120000"), 180);
            long cpu1 = Proc.cpuTicks(p.pid());
            Map<String, Object> flood = Files.exists(report) ? Json.object(Files.readString(report).trim()) : Map.of();
            // Both sides stamp with the machine's monotonic clock (see bench/acp-flood.mjs).
            double firstChunkUs = num(flood.get("firstChunkMonotonicUs"));
            int chunks = (int) num(flood.getOrDefault("chunks", 0.0));
            BitSet seen = new BitSet();
            int tokenFrames = 0, reordered = 0, last = -1, frames = 0;
            long firstTokenUs = 0, lastTokenUs = 0;
            boolean completed = false;
            String problem = null;
            for (String line : out) {
                if (line.startsWith("FRAME ")) {
                    frames++;
                    int sp = line.indexOf(' ', 6);
                    long us = Long.parseLong(line.substring(6, sp));
                    String data = line.substring(sp + 1);
                    completed = data.contains("TASK_STATE_COMPLETED");
                    Matcher t = TOKEN.matcher(data);
                    boolean any = false;
                    while (t.find()) {
                        int i = Integer.parseInt(t.group(1));
                        if (!seen.get(i)) {
                            if (i < last) {
                                reordered++;
                            }
                            last = Math.max(last, i);
                        }
                        seen.set(i);
                        any = true;
                    }
                    if (any) {
                        tokenFrames++;
                        firstTokenUs = firstTokenUs == 0 ? us : firstTokenUs;
                        lastTokenUs = us;
                    }
                } else if (line.startsWith("BENCH_JSON ")) {
                    Object pr = Json.object(line.substring(11)).get("problem");
                    problem = pr == null ? null : pr.toString();
                }
            }
            int lost = chunks - seen.get(0, Math.max(chunks, 0)).cardinality();
            m.put("chunks", (double) chunks);
            m.put("frames", (double) frames);
            m.put("token_frames", (double) tokenFrames);
            m.put("first_frame_ms", tokenFrames > 0 ? (firstTokenUs - firstChunkUs) / 1000 : Double.NaN);
            m.put("frames_per_s", tokenFrames > 1 ? tokenFrames / ((lastTokenUs - firstTokenUs) / 1e6) : Double.NaN);
            m.put("chunks_per_frame", tokenFrames > 0 ? (double) chunks / tokenFrames : Double.NaN);
            m.put("lost", (double) lost);
            m.put("reordered", (double) reordered);
            m.put("cpu_us_per_chunk", chunks > 0 ? (cpu1 - cpu0) * 1e6 / Proc.CLK_TCK / chunks : Double.NaN);
            m.put("completed", completed);
            boolean ok = chunks == o.bridgeChunks && lost == 0 && reordered == 0 && completed && problem == null;
            m.put("valid", ok);
            m.put("failures", ok ? 0.0 : Math.max(1.0, lost));
            m.put("first_failure", ok ? null : problem != null ? problem : chunks != o.bridgeChunks
                    ? "the agent reported " + chunks + " chunks sent" : !completed ? "the stream did not end COMPLETED"
                    : lost + " chunks lost, " + reordered + " out of order");
        } catch (IOException e) {
            m.put("valid", false);
            m.put("failures", 1.0);
            m.put("first_failure", e.getMessage());
        }
        return m;
    }

    // =============================================================================================
    // Load generators

    /** One wrk run; every response checked by a2a.lua. Returns the normalised figures. */
    Map<String, Object> wrk(List<Proc> servers, String url, int c, int seconds, String mode, String taskId)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of("wrk", "-t", "" + Math.min(o.wrkThreads, c), "-c", "" + c, "-d",
                seconds + "s", "--timeout", "10s", "-s", root.resolve("bench/a2a.lua").toString(), url, "--", mode,
                tag()));
        if (taskId != null) {
            cmd.add(taskId);
        }
        long cpu0 = ticks(servers), child0 = Proc.reapedChildrenTicks();
        List<String> out = capture(cmd, seconds + 60);
        long cpu1 = ticks(servers), child1 = Proc.reapedChildrenTicks();
        Map<String, Object> m = new LinkedHashMap<>();
        String line = out.stream().filter(l -> l.startsWith("BENCH_JSON ")).findFirst().orElse(null);
        if (line == null) {
            m.put("valid", false);
            m.put("failures", 1.0);
            m.put("first_failure", "wrk printed no result: " + String.join(" / ", out));
            return m;
        }
        Map<String, Object> j = Json.object(line.substring(11));
        @SuppressWarnings("unchecked") Map<String, Object> e = (Map<String, Object>) j.get("errors");
        @SuppressWarnings("unchecked") Map<String, Object> lat = (Map<String, Object>) j.get("latency_us");
        double reqs = num(j.get("requests")), dur = num(j.get("duration_us")) / 1e6;
        double failures = Math.max(num(j.get("failures")), num(e.get("status"))) + num(e.get("connect"))
                + num(e.get("read")) + num(e.get("write")) + num(e.get("timeout")) + (reqs - num(j.get("checked")));
        m.put("concurrency", (double) c);
        m.put("requests", reqs);
        m.put("duration_s", dur);
        m.put("rps", reqs / dur);
        m.put("p50_ms", num(lat.get("p50")) / 1000);
        m.put("p90_ms", num(lat.get("p90")) / 1000);
        m.put("p99_ms", num(lat.get("p99")) / 1000);
        m.put("max_ms", num(lat.get("max")) / 1000);
        m.put("server_cpu_s", (cpu1 - cpu0) / (double) Proc.CLK_TCK);
        m.put("cpu_us_per_req", reqs > 0 ? (cpu1 - cpu0) * 1e6 / Proc.CLK_TCK / reqs : Double.NaN);
        m.put("client_cpu_s", (child1 - child0) / (double) Proc.CLK_TCK);
        m.put("failures", failures);
        m.put("valid", failures == 0 && reqs > 0);
        m.put("first_failure", j.get("first_failure"));
        m.put("wrk", j);
        return m;
    }

    /** One SseLoad run at concurrency c; server CPU is read at the window's start and end marks. */
    Map<String, Object> sse(List<Proc> servers, int port, int c) throws Exception {
        return sse(servers, port, c, Math.max(2, o.warmup), o.duration);
    }

    Map<String, Object> sse(List<Proc> servers, int port, int c, int warmupS, int durationS) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(List.of(java, "-cp", classes.toString(), "SseLoad", "--mode", "load",
                "--url", url(port), "--concurrency", "" + c, "--warmup", "" + warmupS, "--duration", "" + durationS,
                "--tag", tag())).directory(run.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(logs.resolve("sseload.log").toFile()));
        long child0 = Proc.reapedChildrenTicks();
        Proc load = Proc.wrap("sseload", pb.start());
        BlockingQueue<String> lines = lines(load.process);
        long cpuStart = 0, cpuEnd = 0;
        Map<String, Object> j = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(warmupS + durationS + 90);
        try {
            while (j == null && System.nanoTime() < deadline) {
                String l = lines.poll(1, TimeUnit.SECONDS);
                if (l == null) {
                    continue;
                }
                if (l.equals(EOF)) {
                    break;
                }
                if (l.equals("BENCH_MARK start")) {
                    cpuStart = ticks(servers);
                } else if (l.equals("BENCH_MARK end")) {
                    cpuEnd = ticks(servers);
                } else if (l.startsWith("BENCH_JSON ")) {
                    j = Json.object(l.substring(11));
                }
            }
            load.process.waitFor(30, TimeUnit.SECONDS);
        } finally {
            load.stop();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        if (j == null) {
            m.put("valid", false);
            m.put("failures", 1.0);
            m.put("first_failure", "SseLoad printed no result (see " + logs.resolve("sseload.log") + ")");
            return m;
        }
        double streams = num(j.get("streams")), failures = num(j.get("failures"));
        m.put("concurrency", (double) c);
        m.put("streams", streams);
        m.put("streams_per_s", num(j.get("streams_per_s")));
        m.put("ttff_p50_ms", nested(j, "ttff_ms", "p50"));
        m.put("ttff_p99_ms", nested(j, "ttff_ms", "p99"));
        m.put("ttlf_p50_ms", nested(j, "ttlf_ms", "p50"));
        m.put("ttlf_p99_ms", nested(j, "ttlf_ms", "p99"));
        m.put("server_cpu_s", (cpuEnd - cpuStart) / (double) Proc.CLK_TCK);
        m.put("cpu_us_per_stream", streams > 0 ? (cpuEnd - cpuStart) * 1e6 / Proc.CLK_TCK / streams : Double.NaN);
        m.put("client_cpu_s_whole_process", (Proc.reapedChildrenTicks() - child0) / (double) Proc.CLK_TCK);
        m.put("failures", failures);
        m.put("valid", failures == 0 && streams > 0);
        m.put("first_failure", j.get("first_failure"));
        m.put("sseload", j);
        return m;
    }

    String createTask(int port) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":{\"messageId\":\""
                + tag() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"" + SseLoad.TEXT + "\"}]}}}";
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url(port)))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        Matcher m = TASK_ID.matcher(r.body());
        if (r.statusCode() != 200 || !m.find() || !r.body().contains("TASK_STATE_COMPLETED")) {
            throw new IOException("could not create a task for GetTask: HTTP " + r.statusCode() + " " + r.body());
        }
        return m.group(1);
    }

    // =============================================================================================
    // Servers and processes

    Proc startAgent(Kind k, long stepDelayMs, String label) throws Exception {
        int port = Proc.freePort();
        Map<String, String> env = new HashMap<>(agentEnv(port, stepDelayMs));
        env.putAll(storeEnv(k));
        Proc p = Proc.start(k.id, agentCommand(k), env, run, logFor(label, k));
        p.port = port;
        try {
            p.awaitCard(port, Duration.ofSeconds(90));
        } catch (IOException e) {
            p.stop();
            throw e;
        }
        return p;
    }

    List<String> agentCommand(Kind k) {
        return switch (k) {
            case LEGATE, MEMORY, SQLITE, POSTGRES -> List.of(launcher.toString(), "agent");
            case LEGATE_JAR -> {
                // the same JVM options bin/legate passes
                List<String> c = new ArrayList<>(List.of(java, "-Xshare:auto"));
                if (Runtime.version().feature() >= 23) {
                    c.add("--sun-misc-unsafe-memory-access=allow");
                }
                String opts = System.getenv("LEGATE_JAVA_OPTS");
                String given = opts == null ? "" : opts;
                if (!given.matches(".*-XX:\\+Use\\w*GC.*")) {
                    c.add("-XX:+UseSerialGC");
                    if (!given.matches(".*(-Xmn|NewSize|NewRatio).*")) {
                        c.add("-Xmn32m");
                    }
                }
                if (!given.isBlank()) {
                    c.addAll(Arrays.asList(given.trim().split("\\s+")));
                }
                c.addAll(List.of("-jar", jar.toString(), "agent"));
                yield c;
            }
            case REFERENCE -> List.of("node", root.resolve("interop/revisor-server.mjs").toString());
        };
    }

    /**
     * The load is one anonymous caller with many tasks at once: MAX_TASKS_PER_PRINCIPAL=0 is the
     * agent's default, set anyway so that a .env in the working folder cannot bring a limit back.
     * Workload 4 holds 10,000 streams as that one caller, ten times MAX_STREAMS_PER_PRINCIPAL's
     * default (which exists to stop one caller doing just that): 0 lifts it.
     */
    Map<String, String> agentEnv(int port, long stepDelayMs) {
        return env(Map.of("PORT", "" + port, "HOST", "127.0.0.1", "STEP_DELAY_MS", "" + stepDelayMs,
                "MAX_TASKS_PER_PRINCIPAL", "0", "MAX_STREAMS_PER_PRINCIPAL", "0"));
    }

    /**
     * The task store a Legate start uses. The store kinds name theirs; plain Legate keeps what the
     * environment says (SQLite unless {@code TASK_STORE} is set). Every start gets an empty data
     * folder or database: a figure must not depend on what an earlier round left in the file.
     */
    Map<String, String> storeEnv(Kind k) throws IOException {
        Map<String, String> env = new HashMap<>();
        if (k == Kind.REFERENCE) {
            return env;
        }
        env.put("DATA_DIR", run.resolve("data-" + (++seq)).toString());
        switch (k) {
            case MEMORY -> env.put("TASK_STORE", "memory");
            case SQLITE -> env.put("TASK_STORE", "sqlite");
            case POSTGRES -> {
                env.put("TASK_STORE", "postgres");
                env.put("DATABASE_URL", postgres().freshDatabase());
            }
            default -> {
            }
        }
        return env;
    }

    Postgres postgres;

    /** The scratch PostgreSQL server, started on first use and stopped at the end of the run. */
    Postgres postgres() throws IOException {
        if (postgres == null) {
            try {
                postgres = Postgres.start(logs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while PostgreSQL started", e);
            }
            progress("PostgreSQL " + postgres.bin.getParent().getFileName() + " started on 127.0.0.1:" + postgres.port);
        }
        return postgres;
    }

    /** This process's environment without the keys the servers read, plus {@code extra}. */
    static Map<String, String> env(Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(System.getenv());
        SCRUBBED_ENV.forEach(env::remove);
        env.putAll(extra);
        return env;
    }

    Path logFor(String label, Kind k) {
        return logs.resolve(String.format("%03d-%s-%s.log", ++seq, label, k.id));
    }

    static final String EOF = "\u0000EOF";

    /** The process's stdout, line by line, on a queue; {@link #EOF} at the end. */
    static BlockingQueue<String> lines(Process p) {
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    q.add(l);
                }
            } catch (IOException ignored) {
                // the process went away
            }
            q.add(EOF);
        }, "stdout-" + p.pid());
        t.setDaemon(true);
        t.start();
        return q;
    }

    static Map<String, Object> awaitJson(BlockingQueue<String> lines, String prefix, int timeoutS) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        while (System.nanoTime() < deadline) {
            String l = lines.poll(1, TimeUnit.SECONDS);
            if (l == null) {
                continue;
            }
            if (l.equals(EOF)) {
                throw new IOException("the stream client exited before printing " + prefix.trim());
            }
            if (l.startsWith(prefix)) {
                return Json.object(l.substring(prefix.length()));
            }
        }
        throw new IOException("no " + prefix.trim() + " within " + timeoutS + " s");
    }

    /** Runs a load generator to completion (killed after {@code timeoutS}) and returns its stdout lines. */
    List<String> capture(List<String> cmd, int timeoutS) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(run.toFile())
                .redirectError(ProcessBuilder.Redirect.appendTo(logs.resolve("load.log").toFile()));
        Proc p = Proc.wrap(cmd.get(0), pb.start());
        BlockingQueue<String> q = lines(p.process);
        List<String> out = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutS);
        try {
            while (System.nanoTime() < deadline) {
                String l = q.poll(1, TimeUnit.SECONDS);
                if (l == null) {
                    continue;
                }
                if (l.equals(EOF)) {
                    break;
                }
                out.add(l);
            }
            p.process.waitFor(10, TimeUnit.SECONDS);
        } finally {
            p.stop();
        }
        return out;
    }

    static long ticks(List<Proc> servers) {
        long t = 0;
        for (Proc p : servers) {
            t += p.tree().cpuTicks();
        }
        return t;
    }

    long fileLimit() {
        String s = Proc.capture(List.of("sh", "-c", "ulimit -n"), run, 10);
        if (s == null || s.isBlank()) {
            return -1;
        }
        s = s.trim();
        return s.equals("unlimited") ? Long.MAX_VALUE : Long.parseLong(s);
    }

    // =============================================================================================
    // Samples: figures per workload, side and round

    /** Measurements keyed by workload, side and round; builds the table rows with per-round comparisons. */
    final class Samples {
        final Map<String, Map<Kind, Map<Integer, Map<String, Object>>>> data = new LinkedHashMap<>();
        final String name;

        Samples(String name) {
            this.name = name;
        }

        void put(String key, Kind k, int round, Map<String, Object> m) {
            m.put("round", (double) (round + 1));
            data.computeIfAbsent(key, x -> new LinkedHashMap<>()).computeIfAbsent(k, x -> new TreeMap<>())
                    .put(round, m);
            @SuppressWarnings("unchecked") Map<String, Object> byKey = (Map<String, Object>) raw.computeIfAbsent(key,
                    x -> new LinkedHashMap<String, Object>());
            @SuppressWarnings("unchecked") List<Object> list = (List<Object>) byKey.computeIfAbsent(k.id,
                    x -> new ArrayList<>());
            list.add(m);
        }

        Map<String, Object> get(String key, Kind k, int round) {
            return data.getOrDefault(key, Map.of()).getOrDefault(k, Map.of()).get(round);
        }

        Report.Row row(Report.Section sec, String key, String figure, String field, Report.Target target) {
            return row(sec, key, Kind.LEGATE, Kind.REFERENCE, figure, field, target);
        }

        /** Side A against side B, the comparison being the per-round ratio A/B. */
        Report.Row row(Report.Section sec, String key, Kind a, Kind b, String figure, String field,
                       Report.Target target) {
            Report.Row row = sec.row(figure);
            row.target = target;
            int failures = 0, bad = 0;
            String first = null;
            for (int r = 0; r < 64; r++) {
                Map<String, Object> ma = get(key, a, r), mb = get(key, b, r);
                if (ma == null && mb == null) {
                    continue;
                }
                Double va = value(ma, field), vb = value(mb, field);
                if (va != null) {
                    row.a.add(va);
                }
                if (vb != null) {
                    row.b.add(vb);
                }
                if (va != null && vb != null && vb != 0) {
                    row.cmp.add(va / vb);
                }
                for (Map<String, Object> m : Arrays.asList(ma, mb)) {
                    if (m != null && !Boolean.TRUE.equals(m.get("valid"))) {
                        bad++;
                        failures += (int) num(m.getOrDefault("failures", 1.0));
                        first = first != null ? first : String.valueOf(m.get("first_failure"));
                    }
                }
            }
            if (bad > 0) {
                row.invalid = failures + " failure(s) in " + bad + " sample(s), first: " + SseLoad.clip(first);
            }
            return row;
        }

        /** Replaces the row's comparison by the per-round difference A − B (ms). */
        void diff(Report.Row row, String key) {
            row.cmp.clear();
            row.cmpUnit = "ms";
            for (int r = 0; r < 64; r++) {
                Double va = value(get(key, Kind.LEGATE, r), "p50_ms"), vb = value(get(key, Kind.REFERENCE, r), "p50_ms");
                if (va != null && vb != null) {
                    row.cmp.add(va - vb);
                }
            }
        }

        /** A figure of side A alone, checked against an absolute target. */
        void absolute(Report.Section sec, String key, String figure, String field, Report.Target target) {
            Report.Row row = row(sec, key, Kind.LEGATE, Kind.REFERENCE, figure, field, target);
            row.cmp.clear();
        }

        private Double value(Map<String, Object> m, String field) {
            if (m == null || !(m.get(field) instanceof Number n)) {
                return null;
            }
            double d = n.doubleValue();
            return Double.isNaN(d) ? null : d;
        }
    }

    // =============================================================================================
    // Small things

    static List<Kind> order(int round, Kind... kinds) {
        List<Kind> l = new ArrayList<>(Arrays.asList(kinds));
        if (round % 2 == 1) {
            Collections.reverse(l);
        }
        return l;
    }

    static String rounds(int n) {
        return n + (n == 1 ? " round" : " rounds");
    }

    String roundLabel(int r, Kind k) {
        return "round " + (r + 1) + " " + k.label + ": ";
    }

    static String invalidNote(Map<String, Object> m) {
        return Boolean.TRUE.equals(m.get("valid")) ? "" : "  ** INVALID: " + m.get("failures") + " failure(s), first: "
                + m.get("first_failure");
    }

    String tag() {
        return runTag + "-" + (++seq);
    }

    static String url(int port) {
        return "http://127.0.0.1:" + port + "/";
    }

    static double num(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    @SuppressWarnings("unchecked")
    static double nested(Map<String, Object> m, String a, String b) {
        return m.get(a) instanceof Map<?, ?> x ? num(((Map<String, Object>) x).get(b)) : Double.NaN;
    }

    void progress(String s) {
        long secs = (System.nanoTime() - started) / 1_000_000_000L;
        System.err.printf(Locale.ROOT, "[%02d:%02d] %s%n", secs / 60, secs % 60, s);
    }

    String wrkVersion() {
        String v = Proc.capture(List.of("sh", "-c", "wrk -v 2>&1 | head -n 1"), run, 10);
        Matcher m = v == null ? null : Pattern.compile("wrk (\\S+)").matcher(v);
        return m != null && m.find() ? m.group(1) : "?";
    }

    Map<String, Object> machine() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        String cpuinfo = Proc.read("/proc/cpuinfo");
        Matcher cpu = Pattern.compile("model name\\s*:\\s*(.+)").matcher(cpuinfo == null ? "" : cpuinfo);
        m.put("cpu", cpu.find() ? cpu.group(1).trim() : "unknown");
        String meminfo = Proc.read("/proc/meminfo");
        Matcher mem = Pattern.compile("MemTotal:\\s*(\\d+)").matcher(meminfo == null ? "" : meminfo);
        m.put("memory_gib", mem.find() ? Math.round(Long.parseLong(mem.group(1)) / 1048576.0 * 10) / 10.0 : null);
        String kernel = Proc.read("/proc/sys/kernel/osrelease");
        m.put("kernel", kernel == null ? "?" : kernel.trim());
        m.put("jdk", System.getProperty("java.vm.vendor") + " " + Runtime.version());
        String node = Proc.capture(List.of("node", "--version"), run, 10);
        m.put("node", node == null ? "?" : node.trim());
        m.put("wrk", wrkVersion());
        String head = Proc.capture(List.of("git", "-C", root.toString(), "rev-parse", "--short", "HEAD"), run, 10);
        m.put("commit", head == null ? "?" : head.trim());
        String dirty = Proc.capture(List.of("git", "--no-optional-locks", "-C", root.toString(), "status",
                "--porcelain", "--untracked-files=normal"), run, 20);
        m.put("uncommitted_paths", dirty == null ? -1 : dirty.lines().filter(l -> !l.isBlank()).count());
        m.put("legate_java_opts", System.getenv().getOrDefault("LEGATE_JAVA_OPTS", ""));
        return m;
    }

    /** What else the machine is doing: the load average and the share of all cores busy over one second. */
    Map<String, Object> background() throws InterruptedException {
        long[] a = cpuStat();
        Thread.sleep(1000);
        long[] b = cpuStat();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("loadavg", loadavg());
        double total = b[0] - a[0], idle = b[1] - a[1];
        m.put("busy_percent", total > 0 ? Math.round(1000 * (1 - idle / total)) / 10.0 : null);
        return m;
    }

    static String loadavg() {
        String s = Proc.read("/proc/loadavg");
        return s == null ? "?" : String.join(" ", Arrays.copyOf(s.trim().split("\\s+"), 3));
    }

    /** {total, idle+iowait} jiffies from the first line of /proc/stat. */
    static long[] cpuStat() {
        String s = Proc.read("/proc/stat");
        String[] f = s == null ? new String[0] : s.lines().findFirst().orElse("").trim().split("\\s+");
        long total = 0;
        for (int i = 1; i < f.length && i <= 8; i++) {
            total += Long.parseLong(f[i]);
        }
        long idle = f.length > 5 ? Long.parseLong(f[4]) + Long.parseLong(f[5]) : 0;
        return new long[] {total, idle};
    }

    String header(Instant start, Map<String, Object> machine, Map<String, Object> background, String resultsFile) {
        StringBuilder b = new StringBuilder();
        String date = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC).format(start);
        b.append("Measured on ").append(date).append(" with `").append(o.command).append("` (")
                .append(String.format(Locale.ROOT, "%.1f", (System.nanoTime() - started) / 6e10)).append(" min).\n\n");
        b.append("- Machine: ").append(machine.get("cores")).append(" cores, ").append(machine.get("cpu")).append(", ")
                .append(machine.get("memory_gib")).append(" GiB RAM, Linux ").append(machine.get("kernel")).append('\n');
        b.append("- Software: JDK ").append(machine.get("jdk")).append(", Node.js ").append(machine.get("node"))
                .append(", wrk ").append(machine.get("wrk")).append("; Legate at ").append(machine.get("commit"));
        long dirty = ((Number) machine.get("uncommitted_paths")).longValue();
        if (dirty > 0) {
            b.append(" with ").append(dirty).append(" uncommitted path(s) in the working tree");
        }
        String opts = (String) machine.get("legate_java_opts");
        b.append(opts.isBlank() ? "; default JVM options" : "; LEGATE_JAVA_OPTS=`" + opts + "`").append('\n');
        Object busy = background.get("busy_percent");
        b.append("- Other work on the machine just before the run: ").append(busy).append(" % of all cores busy, load ")
                .append("average ").append(background.get("loadavg")).append(" (at the end: ").append(loadavg())
                .append(")\n");
        b.append("- Raw figures: `").append(resultsFile).append("` (not committed)\n");
        double loadNow = Double.parseDouble(((String) background.get("loadavg")).split(" ")[0]);
        if ((busy instanceof Number n && n.doubleValue() > 10) || loadNow > 0.5) {
            b.append("\n**The machine was busy with other work during this run**, so these figures only show that the "
                    + "harness works; re-run `bench/run` on a quiet machine before drawing conclusions.\n");
        }
        if (report.anyInvalid()) {
            b.append("\n**Some figures are INVALID**: a request or stream failed its check; see the rows so marked.\n");
        }
        b.append("\nEach cell: median over the rounds (min–max). The comparison column is computed per round, then "
                + "summarised the same way. \"met\"/\"missed\" compares the median with the target.\n");
        return b.toString();
    }

    // =============================================================================================
    // Options

    static final class Options {
        Path root, runDir, launcher, jar, classes;
        String command = "bench/run";
        boolean quick, docs, docsSet;
        int rounds = 3, duration = 5, warmup = 1, serverWarmup = 10, heldRounds = 2, coldRounds = 5, bridgeRounds = 3,
                bridgeChunks = 10_000, wrkThreads = 1, heldOpenTimeoutS = 120, storeRounds = 2, soakMinutes = 5;
        long heldStepDelayMs = 600_000;
        int[] heldLevels = {1000, 5000, 10_000};
        Set<Integer> workloads = new TreeSet<>(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10));
        boolean onlySet;

        static Options parse(String[] args) {
            Options o = new Options();
            List<String> a = Arrays.asList(args);
            for (int i = 0; i < a.size(); i++) {
                String k = a.get(i);
                switch (k) {
                    case "--quick" -> o.quick = true;
                    case "--docs" -> {
                        o.docs = true;
                        o.docsSet = true;
                    }
                    case "--no-docs" -> {
                        o.docs = false;
                        o.docsSet = true;
                    }
                    default -> {
                        if (i + 1 >= a.size()) {
                            throw new IllegalArgumentException(k + " needs a value");
                        }
                        String val = a.get(++i);
                        switch (k) {
                            case "--root" -> o.root = Path.of(val);
                            case "--run-dir" -> o.runDir = Path.of(val);
                            case "--launcher" -> o.launcher = Path.of(val);
                            case "--jar" -> o.jar = Path.of(val);
                            case "--classes" -> o.classes = Path.of(val);
                            case "--command" -> o.command = val;
                            case "--rounds" -> o.rounds = positive(k, val);
                            case "--duration" -> o.duration = positive(k, val);
                            case "--warmup" -> o.warmup = positive(k, val);
                            case "--server-warmup" -> o.serverWarmup = positive(k, val);
                            case "--held-rounds" -> o.heldRounds = positive(k, val);
                            case "--held-levels" -> o.heldLevels = Arrays.stream(val.split(","))
                                    .mapToInt(x -> positive(k, x.trim())).toArray();
                            case "--held-step-delay-ms" -> o.heldStepDelayMs = positive(k, val);
                            case "--held-open-timeout" -> o.heldOpenTimeoutS = positive(k, val);
                            case "--cold-rounds" -> o.coldRounds = positive(k, val);
                            case "--bridge-rounds" -> o.bridgeRounds = positive(k, val);
                            case "--bridge-chunks" -> o.bridgeChunks = positive(k, val);
                            case "--wrk-threads" -> o.wrkThreads = positive(k, val);
                            case "--store-rounds" -> o.storeRounds = positive(k, val);
                            case "--soak-minutes" -> o.soakMinutes = positive(k, val);
                            case "--only" -> {
                                o.onlySet = true;
                                o.workloads = new TreeSet<>();
                                for (String w : val.split(",")) {
                                    int n = positive(k, w.trim());
                                    if (n > 10) {
                                        throw new IllegalArgumentException("--only takes workload numbers 1 to 10");
                                    }
                                    o.workloads.add(n);
                                }
                            }
                            default -> throw new IllegalArgumentException("unknown option " + k);
                        }
                    }
                }
            }
            if (o.quick) {
                if (!o.onlySet) {
                    o.workloads = new TreeSet<>(List.of(1, 3));
                }
                o.rounds = 1;
                o.storeRounds = 1;
                o.soakMinutes = Math.min(o.soakMinutes, 2);
                o.duration = Math.min(o.duration, 3);
                o.serverWarmup = Math.min(o.serverWarmup, 2);
            }
            if (!o.docsSet) {
                o.docs = !o.quick && !o.onlySet;
            }
            if (o.root == null || o.runDir == null || o.launcher == null || o.jar == null || o.classes == null) {
                throw new IllegalArgumentException("start the harness with bench/run");
            }
            return o;
        }

        static int positive(String k, String v) {
            int n = Integer.parseInt(v);
            if (n <= 0) {
                throw new IllegalArgumentException(k + " must be positive");
            }
            return n;
        }

        Map<String, Object> json() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("quick", quick);
            m.put("workloads", new ArrayList<>(workloads));
            m.put("rounds", rounds);
            m.put("duration_s", duration);
            m.put("warmup_s", warmup);
            m.put("server_warmup_s", serverWarmup);
            m.put("wrk_threads", wrkThreads);
            m.put("held_rounds", heldRounds);
            m.put("held_levels", Arrays.stream(heldLevels).boxed().toList());
            m.put("held_step_delay_ms", heldStepDelayMs);
            m.put("cold_rounds", coldRounds);
            m.put("bridge_rounds", bridgeRounds);
            m.put("bridge_chunks", bridgeChunks);
            m.put("store_rounds", storeRounds);
            m.put("soak_minutes", soakMinutes);
            return m;
        }
    }
}
