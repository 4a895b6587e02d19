package legate.acp.log;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The bridge's two JSON Lines logs under {@code LOG_DIR}: {@value #CALLS} and {@value #WORK}; the
 * agents' stderr in {@value #AGENT_STDERR}, one line per line with the conversation it came from;
 * and the console's one line per step of each task ({@link #step}).
 *
 * <p>Every record is one line, a JSON object whose first member is {@code ts} (ISO-8601 UTC with
 * milliseconds, from the clock given), then {@code event}, then the fields in the map's iteration
 * order (pass a {@code LinkedHashMap} to choose it). A field named {@code ts} or {@code event} is
 * written as {@code ts_} or {@code event_}, so the first two members keep their meaning. Values are
 * serialised by Jackson; a value Jackson cannot serialise is written as its {@code toString()}.
 *
 * <p>Each file rotates by size before a write ({@code maxBytes}, default 5 MB), keeping
 * {@code maxFiles} files including the live one (default 5: {@code calls.jsonl},
 * {@code calls.jsonl.1} ... {@code .4}). Thread-safe. Logging never fails the bridge: a failed write
 * is reported once on the {@code errors} stream, never thrown, and later writes try again.
 * Directories are created on the first write, not here, so a bad {@code LOG_DIR} cannot stop startup.
 * Use one instance per directory.
 */
public final class BridgeLogs implements AutoCloseable {

    public static final String CALLS = "calls.jsonl";
    public static final String WORK = "work.jsonl";
    public static final String AGENT_STDERR = "agent-stderr.log";
    private static final DateTimeFormatter CONSOLE_TS =
            DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);
    public static final long DEFAULT_MAX_BYTES = 5L * 1024 * 1024;
    public static final int DEFAULT_MAX_FILES = 5;

    private static final DateTimeFormatter TS =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Clock clock;
    private final PrintStream errors;
    private final AtomicBoolean reported = new AtomicBoolean();
    private final JsonLinesFile calls;
    private final JsonLinesFile work;
    private final JsonLinesFile stderr;
    /** Where the steps of each task are shown; null for none. */
    private final PrintStream console;
    /** True to show the agents' stderr on the console too (--verbose). */
    private final boolean verbose;

    /**
     * @param dir the directory of both files (created on the first write)
     * @param maxBytes the size a file may reach before it is rotated, at least 1
     * @param maxFiles the files kept per log, the live one included, at least 1
     * @param clock the source of {@code ts}
     * @param errors where the first failed write is reported
     */
    public BridgeLogs(Path dir, long maxBytes, int maxFiles, Clock clock, PrintStream errors) {
        this(dir, maxBytes, maxFiles, clock, errors, null, false);
    }

    /**
     * @param console where each task's steps are shown, one line each; null for nowhere
     * @param verbose true to show the agents' stderr lines on the console as well
     */
    public BridgeLogs(Path dir, long maxBytes, int maxFiles, Clock clock, PrintStream errors, PrintStream console,
                      boolean verbose) {
        this(dir, CALLS, WORK, AGENT_STDERR, maxBytes, maxFiles, clock, errors, console, verbose);
    }

    /**
     * One JSON Lines log of another Legate process in this same format and rotation, written by
     * {@link #work} ({@link #call} writes nothing): {@code legate mcp}'s {@code mcp.jsonl}.
     */
    public static BridgeLogs single(Path dir, String name, long maxBytes, int maxFiles, Clock clock,
                                    PrintStream errors) {
        return new BridgeLogs(dir, null, name, null, maxBytes, maxFiles, clock, errors, null, false);
    }

    private BridgeLogs(Path dir, String callsName, String workName, String stderrName, long maxBytes, int maxFiles,
                       Clock clock, PrintStream errors, PrintStream console, boolean verbose) {
        Objects.requireNonNull(dir, "dir");
        if (maxBytes < 1 || maxFiles < 1) {
            throw new IllegalArgumentException("log rotation needs maxBytes >= 1 and maxFiles >= 1, got "
                    + maxBytes + " and " + maxFiles);
        }
        this.clock = Objects.requireNonNull(clock, "clock");
        this.errors = Objects.requireNonNull(errors, "errors");
        this.calls = callsName == null ? null : new JsonLinesFile(dir, callsName, maxBytes, maxFiles, this::writeFailed);
        this.work = new JsonLinesFile(dir, workName, maxBytes, maxFiles, this::writeFailed);
        this.stderr = stderrName == null ? null
                : new JsonLinesFile(dir, stderrName, maxBytes, maxFiles, this::writeFailed);
        this.console = console;
        this.verbose = verbose;
    }

    /** Logs under {@code dir} with the default rotation, the system clock and {@code System.err}. */
    public BridgeLogs(Path dir) {
        this(dir, DEFAULT_MAX_BYTES, DEFAULT_MAX_FILES, Clock.systemUTC(), System.err);
    }

    private BridgeLogs() {
        this.clock = null;
        this.errors = null;
        this.calls = null;
        this.work = null;
        this.stderr = null;
        this.console = null;
        this.verbose = false;
    }

    /** Logs that write nothing: the seam for tests and for a bridge run without {@code LOG_DIR}. */
    public static BridgeLogs disabled() {
        return new BridgeLogs();
    }

    /** One record in {@value #CALLS}: a call between the A2A caller, the bridge and the agent. */
    public void call(String event, Map<String, ?> fields) {
        append(calls, event, fields);
    }

    /** One record in {@value #WORK}: what the agent did (updates, tool calls, permission verdicts). */
    public void work(String event, Map<String, ?> fields) {
        append(work, event, fields);
    }

    /**
     * One step of a task on the console: {@code 12:00:01 task 1a2b3c4d  started}. Short ids, so a
     * person can follow several tasks side by side; the logs hold the full ones.
     */
    public void step(String contextId, String taskId, String text) {
        if (console == null) {
            return;
        }
        String line = CONSOLE_TS.format(clock.instant()) + " task " + shortId(taskId) + " (context " + shortId(contextId)
                + ")  " + text.replace('\n', ' ');
        synchronized (console) {
            console.println(line);
            console.flush();
        }
    }

    /** One line the agent of {@code contextId} wrote on its stderr: to {@value #AGENT_STDERR}, and the console with --verbose. */
    public void agentStderr(String contextId, long pid, String line) {
        if (stderr == null) {
            return;
        }
        String ctx = contextId == null || contextId.isEmpty() ? "-" : contextId;
        String record = TS.format(clock.instant().truncatedTo(ChronoUnit.MILLIS)) + " " + ctx + " " + pid + " " + line;
        stderr.append((record + "\n").getBytes(StandardCharsets.UTF_8));
        if (verbose && console != null) {
            synchronized (console) {
                console.println("agent " + pid + " (context " + shortId(ctx) + "): " + line);
                console.flush();
            }
        }
    }

    private static String shortId(String id) {
        return id == null ? "-" : id.length() <= 8 ? id : id.substring(0, 8);
    }

    /** Closes the files; later records are dropped. */
    @Override
    public void close() {
        if (calls != null) {
            calls.close();
        }
        if (work != null) {
            work.close();
        }
        if (stderr != null) {
            stderr.close();
        }
    }

    private void append(JsonLinesFile file, String event, Map<String, ?> fields) {
        if (file == null) {
            return;
        }
        byte[] line;
        try {
            line = record(event, fields);
        } catch (RuntimeException | JsonProcessingException e) {
            report("cannot serialise a record of event " + event, e);
            return;
        }
        file.append(line);
    }

    private byte[] record(String event, Map<String, ?> fields) throws JsonProcessingException {
        ObjectNode node = JSON.createObjectNode();
        node.put("ts", TS.format(clock.instant().truncatedTo(ChronoUnit.MILLIS)));
        node.put("event", event);
        if (fields != null) {
            for (Map.Entry<String, ?> field : fields.entrySet()) {
                String key = String.valueOf(field.getKey());
                node.set(key.equals("ts") || key.equals("event") ? key + "_" : key, value(field.getValue()));
            }
        }
        // Jackson escapes control characters inside strings, so the record stays on one line.
        return (JSON.writeValueAsString(node) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static JsonNode value(Object value) {
        if (value instanceof JsonNode node) {
            return node;
        }
        if (value instanceof Path || value instanceof Throwable) {
            // Jackson writes a Path as a file: URI and a Throwable with its stack; people read these logs.
            return TextNode.valueOf(value.toString());
        }
        try {
            return JSON.valueToTree(value);
        } catch (IllegalArgumentException e) {
            return TextNode.valueOf(String.valueOf(value));
        }
    }

    private void writeFailed(Path file, Exception e) {
        report("cannot write the log " + file, e);
    }

    private void report(String what, Exception e) {
        if (reported.compareAndSet(false, true)) {
            errors.println("legate: " + what + ": " + e + " (the bridge goes on without it; later log failures"
                    + " are not reported)");
        }
    }
}
