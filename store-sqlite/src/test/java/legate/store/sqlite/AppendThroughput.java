package legate.store.sqlite;

import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.sun.management.OperatingSystemMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.TaskEvent;
import legate.a2a.server.task.TaskStore;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Part;
import lf.a2a.v1.TaskState;

/**
 * A throughput program, not a test: {@code C} virtual threads (64 by default, the benchmark's
 * SendMessage concurrency) append Revisor-shaped turns of five events each (the Task, two WORKING
 * updates, the artifact, COMPLETED durable) to a fresh store and print events and durable waits per
 * second; {@code memory} runs the same against the in-memory store for comparison.
 *
 * <pre>
 * java -cp ... legate.store.sqlite.AppendThroughput [sqlite|memory] [turns=200000] [concurrency=64] [dir]
 * </pre>
 */
public final class AppendThroughput {
    private AppendThroughput() {
    }

    public static void main(String[] args) throws Exception {
        String kind = args.length > 0 ? args[0] : "sqlite";
        int turns = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        int concurrency = args.length > 2 ? Integer.parseInt(args[2]) : 64;
        Path dir = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("legate-append-");
        try (TaskStore store = kind.equals("memory") ? new InMemoryTaskStore() : SqliteTaskStore.open(dir)) {
            run(store, turns / 5, concurrency, "warm-up");
            run(store, turns, concurrency, kind);
        }
        if (!kind.equals("memory")) {
            System.out.printf(Locale.ROOT, "file: %s, %.1f MB%n", dir.resolve(SqliteTaskStore.FILE_NAME),
                    Files.size(dir.resolve(SqliteTaskStore.FILE_NAME)) / 1e6);
        }
    }

    private static void run(TaskStore store, int turns, int concurrency, String label) throws Exception {
        AtomicInteger next = new AtomicInteger();
        String prefix = label + "-" + System.nanoTime() + "-";
        long cpuBefore = processCpuNanos();
        long writerBefore = writerCpuNanos();
        long start = System.nanoTime();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> all = new ArrayList<>();
            for (int c = 0; c < concurrency; c++) {
                all.add(threads.submit(() -> {
                    for (int i = next.getAndIncrement(); i < turns; i = next.getAndIncrement()) {
                        for (TaskEvent e : turn(prefix + i)) {
                            store.append(e, e.seq() == 5);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        // CPU per turn does not depend on what else the machine runs, the rates do.
        double cpu = (processCpuNanos() - cpuBefore) / 1e3 / turns;
        double writer = (writerCpuNanos() - writerBefore) / 1e3 / turns;
        System.out.printf(Locale.ROOT, "%-8s %,d turns in %.2f s: %,.0f events/s, %,.0f durable waits/s;"
                        + " CPU per turn %.1f µs, of which the writer thread %.1f µs%n",
                label, turns, seconds, turns * 5 / seconds, turns / seconds, cpu, writer);
    }

    private static long processCpuNanos() {
        return ((OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** CPU time of the store's writer thread, or 0 (the memory store has none). */
    private static long writerCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("sqlite-writer")) {
                return threads.getThreadCpuTime(t.getThreadId());
            }
        }
        return 0;
    }

    /** Five events the size of a Revisor turn's: the history message, two steps, the statistics, done. */
    private static List<TaskEvent> turn(String taskId) {
        Instant now = Instant.now();
        TaskHistory h = new TaskHistory(taskId, "ctx-" + taskId, now);
        TaskEvent created = h.created();
        TaskEvent counting = h.status(TaskState.TASK_STATE_WORKING, now, "Counting words and characters.");
        TaskEvent sentences = h.status(TaskState.TASK_STATE_WORKING, now, "Counting sentences.");
        Struct stats = Struct.newBuilder().putFields("characters", number(30)).putFields("words", number(6))
                .putFields("sentences", number(2)).putFields("averageWordLength", number(4.17))
                .putFields("topWords", Value.newBuilder().setStringValue("hello, there, bye").build()).build();
        Artifact a = Artifact.newBuilder().setArtifactId("text-stats").setName("Text statistics")
                .addParts(Part.newBuilder().setText("Words: 6, characters: 30, sentences: 2."))
                .addParts(Part.newBuilder().setData(Value.newBuilder().setStructValue(stats))).build();
        TaskEvent artifact = h.artifact(a);
        TaskEvent done = h.status(TaskState.TASK_STATE_COMPLETED, now, "Done.");
        return List.of(created, counting, sentences, artifact, done);
    }

    private static Value number(double n) {
        return Value.newBuilder().setNumberValue(n).build();
    }
}
