package legate.tap.web;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.ArrayDeque;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import legate.tap.show.EncodedLine;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeEvent.Flagged;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Refused;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;
import legate.tap.show.GrpcStatus;
import legate.tap.show.Problem;

/**
 * What the inspector's lists show, kept by the tap as the events come: a row per exchange, the
 * tasks and contexts the answers showed, the problems flagged, and how many of each. A page is
 * sent the newest rows that changed since its last message, at most a few times a second, and asks
 * for a filtered list, the task list or the context list when it shows one; so the page's work
 * follows what it draws, not the traffic. (Measured with bench workload 8: a page that built its
 * own index from every event took the browser about as much CPU per request as the tap's own
 * extra, on the same two cores.)
 *
 * <p>Bounded: the newest {@link #MAX_KEPT} exchanges, tasks and contexts and {@link #MAX_PROBLEMS}
 * problems; the counts say how many were seen. Not thread-safe: {@link SessionHistory} holds its
 * lock around every call.
 */
final class SessionIndex {
    static final int MAX_KEPT = 25_000;
    static final int MAX_PROBLEMS = 10_000;

    /** The filters of the exchange list, each a case-insensitive part of what it matches; blank matches all. */
    record Filter(String method, String status, String task, String context) {
        Filter {
            method = clean(method);
            status = clean(status);
            task = clean(task);
            context = clean(context);
        }

        private static String clean(String s) {
            return s == null ? "" : s.strip().toLowerCase(Locale.ROOT);
        }
    }

    /** A problem as the problem list shows it. */
    record ProblemRow(long exchange, String at, String problem, String summary, String detail) {
    }

    /*
     * The rows, as columns indexed by slot: the tap numbers exchanges in the order they arrive, so
     * the newest MAX_KEPT each have a slot of their own, n mod MAX_KEPT. No object per row: measured
     * with bench workload 8, a row, a task and a context as objects (a dozen per request with their
     * arrays) were what the tap's serial collector spent its time on, copying each through the
     * young generation's survivor spaces before it was promoted and, minutes later, died.
     */
    private final long[] rowN = new long[MAX_KEPT];
    private final long[] atNanos = new long[MAX_KEPT];
    /** What the columns of strings hold is shared ({@link #shared}) where the traffic repeats it. */
    private final String[] method = new String[MAX_KEPT];
    private final String[] target = new String[MAX_KEPT];
    private final String[] rpc = new String[MAX_KEPT];
    private final String[] refused = new String[MAX_KEPT];
    /** A gRPC call's status by name ({@code NOT_FOUND}), or null: not a call, or not ended. */
    private final String[] grpcStatus = new String[MAX_KEPT];
    private final int[] status = new int[MAX_KEPT];
    private final byte[] stream = new byte[MAX_KEPT];
    private final int[] frames = new int[MAX_KEPT];
    private final long[] elapsedMs = new long[MAX_KEPT];
    private final long[] bytes = new long[MAX_KEPT];
    private final long[] rowVersion = new long[MAX_KEPT];
    /** The problems flagged in each exchange, a bit per {@link Problem}. */
    private final int[] flags = new int[MAX_KEPT];
    private static final byte NOT_A_STREAM = 0;
    private static final byte OPEN = 1;
    private static final byte CLOSED = 2;
    private long newest = -1;

    /**
     * The task ids the traffic named or showed, first seen first, and what the answers said of
     * each; a task is listed once an answer shows it.
     */
    private final IdRing tasks = new IdRing(MAX_KEPT);
    private final boolean[] taskShown = new boolean[MAX_KEPT];
    /** A reference into {@link #contexts}, or -1. */
    private final long[] taskContext = new long[MAX_KEPT];
    private final String[] taskState = new String[MAX_KEPT];
    /** The context ids, and how many tasks each holds; a context is listed once a task of it is. */
    private final IdRing contexts = new IdRing(MAX_KEPT);
    private final boolean[] contextListed = new boolean[MAX_KEPT];
    private final int[] contextTasks = new int[MAX_KEPT];
    private final IdColumn rowTasks = new IdColumn(tasks, MAX_KEPT);
    private final IdColumn rowContexts = new IdColumn(contexts, MAX_KEPT);

    /**
     * The few names many rows share (the JSON-RPC methods, the targets, the task states), each kept
     * once; bounded, since the traffic names them.
     */
    private final Map<String, String> names = new HashMap<>();
    private final ArrayDeque<ProblemRow> problems = new ArrayDeque<>();
    private long exchangesSeen;
    private long tasksSeen;
    private long contextsSeen;
    private long problemsSeen;
    private long version;

    SessionIndex() {
        Arrays.fill(rowN, Long.MIN_VALUE);
    }

    /** Takes in one event; returns the index's new version. */
    long apply(ExchangeEvent event, BodyFacts facts) {
        version++;
        int row = slot(event.exchange());
        if (rowN[row] != event.exchange()) {
            open(row, event.exchange(), event.at());
        }
        rowVersion[row] = version;
        switch (event) {
            case Request r -> {
                atNanos[row] = nanos(r.at());
                method[row] = shared(r.method());
                target[row] = shared(r.target());
            }
            case Response r -> {
                status[row] = r.status();
                elapsedMs[row] = r.elapsed().toMillis();
                bytes[row] = r.bodyBytes();
                grpcStatus[row] = grpcStatus(r.headers());
            }
            case StreamOpened s -> {
                status[row] = s.status();
                stream[row] = OPEN;
            }
            case Frame f -> frames[row]++;
            case StreamClosed c -> {
                stream[row] = CLOSED;
                elapsedMs[row] = c.elapsed().toMillis();
                bytes[row] = c.bodyBytes();
                grpcStatus[row] = grpcStatus(c.trailers());
            }
            case Refused r -> {
                status[row] = r.status();
                refused[row] = shared(r.reason());
            }
            case Flagged f -> {
                flags[row] |= 1 << f.problem().ordinal();
                problems.addLast(new ProblemRow(f.exchange(), EncodedLine.instant(f.at()), f.problem().name(),
                        f.problem().summary(), f.detail()));
                problemsSeen++;
                if (problems.size() > MAX_PROBLEMS) {
                    problems.removeFirst();
                }
            }
        }
        if (facts.rpc() != null) {
            rpc[row] = shared(facts.rpc());
        }
        for (String id : facts.taskIds()) {
            rowTasks.add(row, task(id));
        }
        for (String id : facts.contextIds()) {
            rowContexts.add(row, context(id));
        }
        for (BodyFacts.Shown s : facts.tasks()) {
            shown(row, s);
        }
        return version;
    }

    /** Gives exchange {@code n} the row in its slot, which an exchange MAX_KEPT older held. */
    private void open(int row, long n, Instant at) {
        rowN[row] = n;
        atNanos[row] = nanos(at);
        method[row] = "";
        target[row] = "";
        rpc[row] = "";
        refused[row] = null;
        grpcStatus[row] = null;
        status[row] = -1;
        stream[row] = NOT_A_STREAM;
        frames[row] = 0;
        elapsedMs[row] = -1;
        bytes[row] = -1;
        flags[row] = 0;
        rowTasks.clear(row);
        rowContexts.clear(row);
        newest = Math.max(newest, n);
        exchangesSeen++;
    }

    private void shown(int row, BodyFacts.Shown s) {
        long task = task(s.id());
        if (task < 0) {
            return;
        }
        int t = tasks.slot(task);
        if (!taskShown[t]) {
            taskShown[t] = true;
            tasksSeen++;
        }
        if (s.contextId() != null && taskContext[t] < 0) {
            long context = context(s.contextId());
            if (context >= 0) {
                int c = contexts.slot(context);
                taskContext[t] = context;
                contextTasks[c]++;
                if (!contextListed[c]) {
                    contextListed[c] = true;
                    contextsSeen++;
                }
            }
        }
        if (s.state() != null) {
            taskState[t] = shared(s.state());
        }
        rowTasks.add(row, task);
        rowContexts.add(row, taskContext[t]);
    }

    /** The reference of task {@code id}, added (not yet shown) when new; -1 when it is too long to keep. */
    private long task(String id) {
        long task = tasks.find(id);
        if (task < 0) {
            task = tasks.add(id);
            if (task >= 0) {
                int t = tasks.slot(task);
                taskShown[t] = false;
                taskContext[t] = -1;
                taskState[t] = null;
            }
        }
        return task;
    }

    /** The reference of context {@code id}, added (not yet listed) when new; -1 when it is too long to keep. */
    private long context(String id) {
        long context = contexts.find(id);
        if (context < 0) {
            context = contexts.add(id);
            if (context >= 0) {
                int c = contexts.slot(context);
                contextListed[c] = false;
                contextTasks[c] = 0;
            }
        }
        return context;
    }

    private String shared(String name) {
        String kept = names.get(name);
        if (kept != null) {
            return kept;
        }
        if (names.size() < 256) {
            names.put(name, name);
        }
        return name;
    }

    /** The status a gRPC call ended with, by name (by number when it is none of gRPC's), or null. */
    private String grpcStatus(List<ExchangeEvent.Header> fields) {
        GrpcStatus s = GrpcStatus.in(fields);
        return s == null ? null : shared(s.name() != null ? s.name() : s.code());
    }

    private static long nanos(Instant at) {
        return at.getEpochSecond() * 1_000_000_000L + at.getNano();
    }

    /** The slot of exchange {@code n}'s row, or -1 when it is not (or no longer) kept. */
    private int row(long n) {
        int s = slot(n);
        return rowN[s] == n ? s : -1;
    }

    private static int slot(long n) {
        return (int) Math.floorMod(n, (long) MAX_KEPT);
    }

    private String label(int row) {
        return rpc[row].isEmpty() ? method[row] + " " + target[row] : rpc[row];
    }

    private boolean matches(int row, Filter f) {
        if (!f.method().isEmpty() && !label(row).toLowerCase(Locale.ROOT).contains(f.method())
                && !target[row].toLowerCase(Locale.ROOT).contains(f.method())) {
            return false;
        }
        String shownStatus = status[row] < 0 ? "" : refused[row] != null ? status[row] + " refused"
                : grpcStatus[row] != null ? status[row] + " " + grpcStatus[row].toLowerCase(Locale.ROOT)
                : Integer.toString(status[row]);
        if (!f.status().isEmpty() && !shownStatus.contains(f.status())) {
            return false;
        }
        return (f.task().isEmpty() || rowTasks.anyContains(row, f.task()))
                && (f.context().isEmpty() || rowContexts.anyContains(row, f.context()));
    }

    long version() {
        return version;
    }

    /** The slots of the newest {@code max} rows that changed after {@code since}, newest first. */
    int[] changedAmongNewest(long since, int max) {
        int[] changed = new int[max];
        int found = 0;
        int seen = 0;
        for (long n = newest, i = 0; i < MAX_KEPT && seen < max; n--, i++) {
            int r = row(n);
            if (r < 0) {
                continue;
            }
            seen++;
            if (rowVersion[r] > since) {
                changed[found++] = r;
            }
        }
        return Arrays.copyOf(changed, found);
    }

    /** The newest {@code max} rows that match, newest first, and how many older ones match too. */
    Listing rows(Filter filter, int max) {
        Listing.Builder l = new Listing.Builder(max);
        for (long n = newest, i = 0; i < MAX_KEPT; n--, i++) {
            int r = row(n);
            if (r >= 0 && matches(r, filter)) {
                l.add(r);
            }
        }
        return l.build();
    }

    Listing tasks(int max) {
        return newest(tasks, taskShown, max);
    }

    Listing contexts(int max) {
        return newest(contexts, contextListed, max);
    }

    /** The slots of some of what matched, newest first, and how many more matched. */
    record Listing(int[] slots, long more) {
        static final class Builder {
            private final int[] slots;
            private int size;
            private long more;

            Builder(int max) {
                slots = new int[max];
            }

            void add(int slot) {
                if (size < slots.length) {
                    slots[size++] = slot;
                } else {
                    more++;
                }
            }

            Listing build() {
                return new Listing(Arrays.copyOf(slots, size), more);
            }
        }
    }

    private static Listing newest(IdRing ring, boolean[] listed, int max) {
        Listing.Builder l = new Listing.Builder(max);
        for (int i = 0; i < ring.size(); i++) {
            int slot = ring.slot(ring.newest(i));
            if (listed[slot]) {
                l.add(slot);
            }
        }
        return l.build();
    }

    /** The exchanges a task's view reads: those that showed it, or named it. */
    Set<Long> exchangesOfTask(String id) {
        long task = tasks.find(id);
        Set<Long> all = new LinkedHashSet<>();
        for (long n = newest, i = 0; task >= 0 && i < MAX_KEPT; n--, i++) {
            int r = row(n);
            if (r >= 0 && rowTasks.contains(r, task)) {
                all.add(n);
            }
        }
        return all;
    }

    /** The exchanges a context's view reads: those that named it and those that showed its tasks. */
    Set<Long> exchangesOfContext(String id) {
        long context = contexts.find(id);
        if (context < 0) {
            return Set.of();
        }
        Set<Long> itsTasks = new HashSet<>();
        for (int i = 0; i < tasks.size(); i++) {
            long task = tasks.newest(i);
            if (taskContext[tasks.slot(task)] == context) {
                itsTasks.add(task);
            }
        }
        Set<Long> all = new LinkedHashSet<>();
        for (long n = newest, i = 0; i < MAX_KEPT; n--, i++) {
            int r = row(n);
            if (r >= 0 && (rowContexts.contains(r, context) || rowTasks.anyOf(r, itsTasks))) {
                all.add(n);
            }
        }
        return all;
    }

    /** The problems flagged after the first {@code seen}, as far as they are kept. */
    List<ProblemRow> problemsAfter(long seen) {
        long kept = problemsSeen - problems.size();
        List<ProblemRow> after = new ArrayList<>();
        long i = kept;
        for (ProblemRow p : problems) {
            if (i++ >= seen) {
                after.add(p);
            }
        }
        return after;
    }

    long problemsSeen() {
        return problemsSeen;
    }

    void writeCounts(JsonGenerator g) throws IOException {
        g.writeObjectFieldStart("counts");
        g.writeNumberField("exchanges", exchangesSeen);
        g.writeNumberField("tasks", tasksSeen);
        g.writeNumberField("contexts", contextsSeen);
        g.writeNumberField("problems", problemsSeen);
        g.writeEndObject();
    }

    /** One exchange as the list shows it. */
    void writeRow(JsonGenerator g, int row) throws IOException {
        g.writeStartObject();
        g.writeNumberField("n", rowN[row]);
        g.writeStringField("at", EncodedLine.instant(Instant.ofEpochSecond(0, atNanos[row])));
        g.writeStringField("label", label(row));
        if (status[row] >= 0) {
            g.writeNumberField("status", status[row]);
        }
        if (stream[row] != NOT_A_STREAM) {
            g.writeBooleanField("stream", true);
            g.writeBooleanField("open", stream[row] == OPEN);
            g.writeNumberField("frames", frames[row]);
        }
        if (elapsedMs[row] >= 0) {
            g.writeNumberField("elapsedMs", elapsedMs[row]);
        }
        if (bytes[row] >= 0) {
            g.writeNumberField("bytes", bytes[row]);
        }
        if (refused[row] != null) {
            g.writeStringField("refused", refused[row]);
        }
        if (grpcStatus[row] != null) {
            g.writeStringField("grpc", grpcStatus[row]);
        }
        if (flags[row] != 0) {
            g.writeArrayFieldStart("flags");
            for (Problem p : Problem.values()) {
                if ((flags[row] & 1 << p.ordinal()) != 0) {
                    g.writeString(p.summary());
                }
            }
            g.writeEndArray();
        }
        rowTasks.write(g, "taskIds", row);
        g.writeEndObject();
    }

    void writeTask(JsonGenerator g, int t) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", tasks.idAt(t));
        String context = contexts.id(taskContext[t]);
        if (context != null) {
            g.writeStringField("contextId", context);
        }
        if (taskState[t] != null) {
            g.writeStringField("state", taskState[t]);
        }
        g.writeEndObject();
    }

    void writeContext(JsonGenerator g, int c) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", contexts.idAt(c));
        g.writeNumberField("tasks", contextTasks[c]);
        g.writeEndObject();
    }

    static void writeProblem(JsonGenerator g, ProblemRow p) throws IOException {
        g.writeStartObject();
        g.writeNumberField("exchange", p.exchange());
        g.writeStringField("at", p.at());
        g.writeStringField("problem", p.problem());
        g.writeStringField("summary", p.summary());
        g.writeStringField("detail", p.detail());
        g.writeEndObject();
    }
}
