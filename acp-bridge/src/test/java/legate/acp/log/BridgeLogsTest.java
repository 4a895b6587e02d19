package legate.acp.log;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge's JSON Lines logs as a reader of calls.jsonl and work.jsonl sees them: one whole JSON
 * object per line, ts and event first, rotated before a write, and never a reason for the bridge to fail.
 */
class BridgeLogsTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Clock CLOCK = Clock.fixed(Instant.parse("2025-03-01T12:34:56.789123Z"), ZoneOffset.UTC);

    @TempDir
    Path dir;

    final ByteArrayOutputStream errorBytes = new ByteArrayOutputStream();
    final PrintStream errors = new PrintStream(errorBytes, true, StandardCharsets.UTF_8);

    BridgeLogs logs(long maxBytes, int maxFiles) {
        return new BridgeLogs(dir, maxBytes, maxFiles, CLOCK, errors);
    }

    static List<String> lines(Path file) throws IOException {
        return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    }

    static Map<String, Object> fields(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @Test
    void aRecordIsOneLineWithTsAndEventFirstThenTheFieldsInOrder() throws IOException {
        try (BridgeLogs logs = logs(BridgeLogs.DEFAULT_MAX_BYTES, BridgeLogs.DEFAULT_MAX_FILES)) {
            logs.call("a2a.request", fields("method", "SendMessage", "taskId", "t-1", "text", "two\nlines"));
        }
        List<String> lines = lines(dir.resolve("calls.jsonl"));
        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).isEqualTo("{\"ts\":\"2025-03-01T12:34:56.789Z\",\"event\":\"a2a.request\","
                + "\"method\":\"SendMessage\",\"taskId\":\"t-1\",\"text\":\"two\\nlines\"}");
        assertThat(dir.resolve("work.jsonl")).doesNotExist();
    }

    @Test
    void tsAlwaysHasMillisecondsInUtc() throws IOException {
        // Rule: ts is ISO-8601 UTC with ms; Instant.toString would drop ".000" and sort wrongly as text.
        Clock whole = Clock.fixed(Instant.parse("2025-03-01T12:00:00Z"), ZoneOffset.ofHours(5));
        try (BridgeLogs logs = new BridgeLogs(dir, 1000, 2, whole, errors)) {
            logs.work("tick", Map.of());
        }
        assertThat(lines(dir.resolve("work.jsonl")).get(0)).startsWith("{\"ts\":\"2025-03-01T12:00:00.000Z\",");
    }

    @Test
    void valuesAreJsonAndReservedNamesCannotDisplaceTsOrEvent() throws IOException {
        try (BridgeLogs logs = logs(100_000, 2)) {
            logs.work("tool_call", fields(
                    "ts", "caller's ts", "event", "caller's event", "count", 3, "ok", true, "missing", null,
                    "list", List.of("a", "b"), "nested", Map.of("k", 1), "raw", JSON.createObjectNode().put("x", 1),
                    "path", Path.of("/w/a.txt"), "error", new IOException("disk full"),
                    "when", Instant.parse("2025-01-01T00:00:00Z")));
        }
        JsonNode record = JSON.readTree(lines(dir.resolve("work.jsonl")).get(0));
        List<String> names = new ArrayList<>();
        record.fieldNames().forEachRemaining(names::add);
        assertThat(names).containsExactly("ts", "event", "ts_", "event_", "count", "ok", "missing", "list", "nested",
                "raw", "path", "error", "when");
        assertThat(record.get("ts").asText()).isEqualTo("2025-03-01T12:34:56.789Z");
        assertThat(record.get("event").asText()).isEqualTo("tool_call");
        assertThat(record.get("count").isInt()).isTrue();
        assertThat(record.get("missing").isNull()).isTrue();
        assertThat(record.get("list").toString()).isEqualTo("[\"a\",\"b\"]");
        assertThat(record.get("raw").toString()).isEqualTo("{\"x\":1}");
        assertThat(record.get("path").asText()).isEqualTo("/w/a.txt");
        assertThat(record.get("error").asText()).isEqualTo("java.io.IOException: disk full");
        assertThat(record.get("when").asText()).isEqualTo("2025-01-01T00:00:00Z");
    }

    @Test
    void rotationKeepsWholeRecordsTheFileCountAndDropsTheOldest() throws IOException {
        // Rule: rotate before a write, never splitting a record; maxFiles counts the live file.
        try (BridgeLogs logs = logs(300, 3)) {
            for (int n = 0; n < 40; n++) {
                logs.call("turn", fields("n", n, "pad", "x".repeat(20)));
            }
        }
        assertThat(dir.resolve("calls.jsonl.3")).doesNotExist();
        List<Integer> numbers = new ArrayList<>();
        for (String name : List.of("calls.jsonl.2", "calls.jsonl.1", "calls.jsonl")) {
            Path file = dir.resolve(name);
            assertThat(file).exists();
            assertThat(Files.size(file)).as(name).isLessThanOrEqualTo(300);
            for (String line : lines(file)) {
                JsonNode record = JSON.readTree(line);
                assertThat(record.get("event").asText()).isEqualTo("turn");
                numbers.add(record.get("n").asInt());
            }
        }
        assertThat(numbers).isNotEmpty().endsWith(39);
        for (int i = 1; i < numbers.size(); i++) {
            assertThat(numbers.get(i)).as("oldest first, nothing missing in between").isEqualTo(numbers.get(i - 1) + 1);
        }
        assertThat(numbers.get(0)).as("the oldest records were dropped").isGreaterThan(0);
    }

    @Test
    void aRecordLargerThanTheLimitGetsAFileOfItsOwnWhole() throws IOException {
        try (BridgeLogs logs = logs(100, 3)) {
            logs.call("small", Map.of());
            logs.call("big", fields("blob", "y".repeat(500)));
            logs.call("after", Map.of());
        }
        assertThat(lines(dir.resolve("calls.jsonl.2"))).singleElement().asString().contains("\"small\"");
        assertThat(lines(dir.resolve("calls.jsonl.1"))).singleElement().asString().contains("y".repeat(500));
        assertThat(lines(dir.resolve("calls.jsonl"))).singleElement().asString().contains("\"after\"");
    }

    @Test
    void withOneFileRotationStartsTheLiveFileAfresh() throws IOException {
        try (BridgeLogs logs = logs(120, 1)) {
            for (int n = 0; n < 10; n++) {
                logs.work("step", fields("n", n));
            }
        }
        assertThat(dir.resolve("work.jsonl.1")).doesNotExist();
        List<String> lines = lines(dir.resolve("work.jsonl"));
        assertThat(lines).isNotEmpty();
        assertThat(lines.get(lines.size() - 1)).contains("\"n\":9");
    }

    @Test
    void aRestartCountsTheExistingLiveFileTowardsTheLimit() throws IOException {
        Files.writeString(dir.resolve("calls.jsonl"), "{\"old\":\"" + "o".repeat(240) + "\"}\n");
        try (BridgeLogs logs = logs(300, 2)) {
            logs.call("new", fields("pad", "z".repeat(40)));
        }
        assertThat(lines(dir.resolve("calls.jsonl.1"))).singleElement().asString().startsWith("{\"old\"");
        assertThat(lines(dir.resolve("calls.jsonl"))).singleElement().asString().contains("\"new\"");
    }

    @Test
    void concurrentWritersNeverInterleaveOrSplitRecords() throws Exception {
        // Rule: thread-safe; every line is one whole record even while files rotate.
        int threads = 4;
        int each = 250;
        try (BridgeLogs logs = logs(4_000, 50)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int n = 0; n < each; n++) {
                        logs.work("update", fields("thread", thread, "n", n, "text", "chunk " + n));
                    }
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
        }
        List<JsonNode> records = new ArrayList<>();
        for (int i = 49; i >= 1; i--) {
            for (String line : lines(dir.resolve("work.jsonl." + i))) {
                records.add(JSON.readTree(line));
            }
        }
        for (String line : lines(dir.resolve("work.jsonl"))) {
            records.add(JSON.readTree(line));
        }
        assertThat(records).hasSize(threads * each);
        int[] next = new int[threads];
        for (JsonNode record : records) {
            int thread = record.get("thread").asInt();
            assertThat(record.get("n").asInt()).as("per-thread order").isEqualTo(next[thread]++);
        }
        assertThat(errorBytes.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aFailedWriteIsReportedOnceNeverThrownAndTheLogRecoversWithTheDisk() throws IOException {
        // Rule: the bridge must not go down because LOG_DIR is unusable (here a file stands where the directory should be).
        Files.writeString(dir.resolve("logs"), "not a directory");
        try (BridgeLogs logs = new BridgeLogs(dir.resolve("logs"), 1000, 3, CLOCK, errors)) {
            logs.call("first", Map.of());
            logs.call("second", Map.of());
            logs.work("third", Map.of());

            String reported = errorBytes.toString(StandardCharsets.UTF_8);
            assertThat(reported.lines()).hasSize(1);
            assertThat(reported).contains("calls.jsonl").contains("not reported");

            Files.delete(dir.resolve("logs"));
            logs.call("fourth", Map.of());
        }
        assertThat(lines(dir.resolve("logs/calls.jsonl"))).singleElement().asString().contains("\"fourth\"");
        assertThat(errorBytes.toString(StandardCharsets.UTF_8).lines()).hasSize(1);
    }

    @Test
    void aFailedRotationIsReportedAndLaterRecordsStillArrive() throws IOException {
        // A directory where calls.jsonl.1 should go makes the rename fail; the record must not be lost later.
        try (BridgeLogs logs = logs(100, 2)) {
            logs.call("one", fields("pad", "p".repeat(60)));
            Files.createDirectories(dir.resolve("calls.jsonl.1/blocker"));
            logs.call("two", fields("pad", "p".repeat(60)));
            assertThat(errorBytes.toString(StandardCharsets.UTF_8)).contains("calls.jsonl");
            Files.delete(dir.resolve("calls.jsonl.1/blocker"));
            Files.delete(dir.resolve("calls.jsonl.1"));
            logs.call("three", fields("pad", "p".repeat(60)));
        }
        List<String> all = new ArrayList<>(lines(dir.resolve("calls.jsonl.1")));
        all.addAll(lines(dir.resolve("calls.jsonl")));
        Iterator<String> it = all.iterator();
        assertThat(it.next()).contains("\"one\"");
        assertThat(it.next()).contains("\"three\"");
    }

    @Test
    void theAgentsStderrIsKeptLineByLineWithItsContextAndShownOnlyWhenVerbose() throws IOException {
        // Issue 12: an adapter's stderr is often the only explanation of its failure; each line names its conversation.
        ByteArrayOutputStream consoleBytes = new ByteArrayOutputStream();
        PrintStream console = new PrintStream(consoleBytes, true, StandardCharsets.UTF_8);
        try (BridgeLogs quiet = new BridgeLogs(dir, 1 << 20, 2, CLOCK, errors, console, false)) {
            quiet.agentStderr("ctx-1234567890", 42, "Error: something broke");
            quiet.step("ctx-1234567890", "task-abcdefghij", "started: hello\nworld");
        }
        assertThat(lines(dir.resolve(BridgeLogs.AGENT_STDERR)))
                .containsExactly("2025-03-01T12:34:56.789Z ctx-1234567890 42 Error: something broke");
        // The console shows steps, one line each, with short ids; not the agent's stderr without --verbose.
        assertThat(consoleBytes.toString(StandardCharsets.UTF_8))
                .isEqualTo("12:34:56 task task-abc (context ctx-1234)  started: hello world" + System.lineSeparator());

        consoleBytes.reset();
        try (BridgeLogs verbose = new BridgeLogs(dir, 1 << 20, 2, CLOCK, errors, console, true)) {
            verbose.agentStderr("ctx-1234567890", 42, "warning: slow");
        }
        assertThat(consoleBytes.toString(StandardCharsets.UTF_8)).contains("agent 42 (context ctx-1234): warning: slow");
    }
}
