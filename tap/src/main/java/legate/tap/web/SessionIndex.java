package legate.tap.web;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.ArrayDeque;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import legate.tap.show.EncodedLine;
import legate.tap.show.ExchangeEvent;
import legate.tap.show.ExchangeEvent.Flagged;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Refused;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeEvent.StreamOpened;

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

    /**
     * One exchange as the list shows it. Kept small, in few objects (ids in arrays, names shared):
     * the profile of the tap under load put the garbage collector's copying of the index's objects
     * at most of what the page cost the tap, more than the history of bodies.
     */
    static final class Row {
        final long n;
        long atSecond;
        int atNano;
        String method = "";
        String target = "";
        String rpc = "";
        int status = -1;
        boolean stream;
        boolean open;
        int frames;
        long elapsedMs = -1;
        long bytes = -1;
        String refused;
        String[] flags = NONE;
        String[] taskIds = NONE;
        String[] contextIds = NONE;
        long version;

        Row(long n, Instant at) {
            this.n = n;
            at(at);
        }

        void at(Instant at) {
            atSecond = at.getEpochSecond();
            atNano = at.getNano();
        }

        String label() {
            return rpc.isEmpty() ? method + " " + target : rpc;
        }

        boolean matches(Filter f) {
            if (!f.method().isEmpty() && !label().toLowerCase(Locale.ROOT).contains(f.method())
                    && !target.toLowerCase(Locale.ROOT).contains(f.method())) {
                return false;
            }
            String shownStatus = status < 0 ? "" : refused != null ? status + " refused" : Integer.toString(status);
            if (!f.status().isEmpty() && !shownStatus.contains(f.status())) {
                return false;
            }
            return (f.task().isEmpty() || anyContains(taskIds, f.task()))
                    && (f.context().isEmpty() || anyContains(contextIds, f.context()));
        }

        void write(JsonGenerator g) throws IOException {
            g.writeStartObject();
            g.writeNumberField("n", n);
            g.writeStringField("at", EncodedLine.instant(Instant.ofEpochSecond(atSecond, atNano)));
            g.writeStringField("label", label());
            if (status >= 0) {
                g.writeNumberField("status", status);
            }
            if (stream) {
                g.writeBooleanField("stream", true);
                g.writeBooleanField("open", open);
                g.writeNumberField("frames", frames);
            }
            if (elapsedMs >= 0) {
                g.writeNumberField("elapsedMs", elapsedMs);
            }
            if (bytes >= 0) {
                g.writeNumberField("bytes", bytes);
            }
            if (refused != null) {
                g.writeStringField("refused", refused);
            }
            strings(g, "flags", flags);
            strings(g, "taskIds", taskIds);
            g.writeEndObject();
        }
    }

    /** A task as the task list shows it, and the exchanges that showed it (for its view). */
    static final class TaskRow {
        final String id;
        String contextId;
        String state;
        long[] exchanges = new long[0];

        TaskRow(String id) {
            this.id = id;
        }

        void shownIn(long n) {
            for (long e : exchanges) {
                if (e == n) {
                    return;
                }
            }
            exchanges = Arrays.copyOf(exchanges, exchanges.length + 1);
            exchanges[exchanges.length - 1] = n;
        }
    }

    /** A context and its tasks in the order they were first shown. */
    static final class ContextRow {
        final String id;
        String[] tasks = NONE;

        ContextRow(String id) {
            this.id = id;
        }
    }

    /** A problem as the problem list shows it. */
    record ProblemRow(long exchange, String at, String problem, String summary, String detail) {
    }

    private static final String[] NONE = {};

    /**
     * The rows by exchange number in a ring: the tap numbers exchanges in the order they arrive, so
     * the newest {@link #MAX_KEPT} each have a slot of their own, with no map entry or boxed key each.
     */
    private final Row[] rows = new Row[MAX_KEPT];
    private long newest;
    /**
     * The few names many rows share (the JSON-RPC methods, the task states), each kept once; bounded,
     * since the traffic names them.
     */
    private final Map<String, String> names = new HashMap<>();
    private final RingMap<TaskRow> tasks = new RingMap<>(MAX_KEPT);
    private final RingMap<ContextRow> contexts = new RingMap<>(MAX_KEPT);
    private final ArrayDeque<ProblemRow> problems = new ArrayDeque<>();
    private long exchangesSeen;
    private long tasksSeen;
    private long contextsSeen;
    private long problemsSeen;
    private long version;

    /** Takes in one event; returns the index's new version. */
    long apply(ExchangeEvent event, BodyFacts facts) {
        version++;
        Row row = row(event.exchange());
        if (row == null) {
            row = new Row(event.exchange(), event.at());
            rows[slot(row.n)] = row;
            newest = Math.max(newest, row.n);
            exchangesSeen++;
        }
        row.version = version;
        switch (event) {
            case Request r -> {
                row.at(r.at());
                row.method = r.method();
                row.target = r.target();
            }
            case Response r -> {
                row.status = r.status();
                row.elapsedMs = r.elapsed().toMillis();
                row.bytes = r.bodyBytes();
            }
            case StreamOpened s -> {
                row.status = s.status();
                row.stream = true;
                row.open = true;
            }
            case Frame f -> row.frames++;
            case StreamClosed c -> {
                row.open = false;
                row.elapsedMs = c.elapsed().toMillis();
                row.bytes = c.bodyBytes();
            }
            case Refused r -> {
                row.status = r.status();
                row.refused = r.reason();
            }
            case Flagged f -> {
                row.flags = with(row.flags, f.problem().summary());
                problems.addLast(new ProblemRow(f.exchange(), EncodedLine.instant(f.at()), f.problem().name(),
                        f.problem().summary(), f.detail()));
                problemsSeen++;
                if (problems.size() > MAX_PROBLEMS) {
                    problems.removeFirst();
                }
            }
        }
        if (facts.rpc() != null) {
            row.rpc = shared(facts.rpc());
        }
        for (String id : facts.taskIds()) {
            row.taskIds = with(row.taskIds, id);
        }
        for (String id : facts.contextIds()) {
            row.contextIds = with(row.contextIds, id);
        }
        for (BodyFacts.Shown s : facts.tasks()) {
            shown(row, s);
        }
        return version;
    }

    private void shown(Row row, BodyFacts.Shown s) {
        TaskRow t = tasks.get(s.id());
        if (t == null) {
            t = new TaskRow(s.id());
            tasks.put(t.id, t);
            tasksSeen++;
        }
        if (s.contextId() != null && t.contextId == null) {
            t.contextId = s.contextId();
            ContextRow c = contexts.get(t.contextId);
            if (c == null) {
                c = new ContextRow(t.contextId);
                contexts.put(c.id, c);
                contextsSeen++;
            }
            c.tasks = with(c.tasks, t.id);
        }
        if (s.state() != null) {
            t.state = shared(s.state());
        }
        t.shownIn(row.n);
        row.taskIds = with(row.taskIds, t.id);
        if (t.contextId != null) {
            row.contextIds = with(row.contextIds, t.contextId);
        }
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

    /** The row of exchange {@code n}, or null when it is not (or no longer) kept. */
    private Row row(long n) {
        Row r = rows[slot(n)];
        return r != null && r.n == n ? r : null;
    }

    private static int slot(long n) {
        return (int) Math.floorMod(n, (long) MAX_KEPT);
    }

    /** The kept rows, newest first. */
    private Iterable<Row> newestRows() {
        List<Row> out = new ArrayList<>();
        for (long n = newest, i = 0; i < MAX_KEPT; n--, i++) {
            Row r = row(n);
            if (r != null) {
                out.add(r);
            }
        }
        return out;
    }

    /** The array with {@code s} added, unless it holds it already; ids are few per exchange. */
    private static String[] with(String[] ids, String s) {
        for (String id : ids) {
            if (id.equals(s)) {
                return ids;
            }
        }
        String[] more = Arrays.copyOf(ids, ids.length + 1);
        more[ids.length] = s;
        return more;
    }

    private static boolean anyContains(String[] ids, String part) {
        for (String id : ids) {
            if (id.toLowerCase(Locale.ROOT).contains(part)) {
                return true;
            }
        }
        return false;
    }

    long version() {
        return version;
    }

    /** The newest {@code max} rows, newest first, that changed after {@code since}. */
    List<Row> changedAmongNewest(long since, int max) {
        List<Row> changed = new ArrayList<>();
        int seen = 0;
        for (long n = newest, i = 0; i < MAX_KEPT && seen < max; n--, i++) {
            Row r = row(n);
            if (r == null) {
                continue;
            }
            seen++;
            if (r.version > since) {
                changed.add(r);
            }
        }
        return changed;
    }

    /** The newest {@code max} rows that match, newest first, and how many older ones match too. */
    Listing<Row> rows(Filter filter, int max) {
        return newest(newestRows(), max, r -> r.matches(filter));
    }

    Listing<TaskRow> tasks(int max) {
        return newest(tasks.newestFirst(), max, t -> true);
    }

    Listing<ContextRow> contexts(int max) {
        return newest(contexts.newestFirst(), max, c -> true);
    }

    /** Some of what matched, newest first, and how many more matched. */
    record Listing<T>(List<T> items, long more) {
    }

    private static <V> Listing<V> newest(Iterable<V> newestFirst, int max, Predicate<V> wanted) {
        List<V> items = new ArrayList<>(max);
        long more = 0;
        for (V v : newestFirst) {
            if (!wanted.test(v)) {
                continue;
            }
            if (items.size() < max) {
                items.add(v);
            } else {
                more++;
            }
        }
        return new Listing<>(items, more);
    }

    /** The exchanges a task's view reads: those that showed it, or named it. */
    Set<Long> exchangesOfTask(String id) {
        TaskRow t = tasks.get(id);
        Set<Long> all = new LinkedHashSet<>();
        if (t != null) {
            for (long n : t.exchanges) {
                all.add(n);
            }
        }
        return all;
    }

    /** The exchanges a context's view reads: those of its tasks. */
    Set<Long> exchangesOfContext(String id) {
        ContextRow c = contexts.get(id);
        if (c == null) {
            return Set.of();
        }
        Set<Long> all = new LinkedHashSet<>();
        for (String task : c.tasks) {
            all.addAll(exchangesOfTask(task));
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

    static void writeTask(JsonGenerator g, TaskRow t) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", t.id);
        if (t.contextId != null) {
            g.writeStringField("contextId", t.contextId);
        }
        if (t.state != null) {
            g.writeStringField("state", t.state);
        }
        g.writeEndObject();
    }

    static void writeContext(JsonGenerator g, ContextRow c) throws IOException {
        g.writeStartObject();
        g.writeStringField("id", c.id);
        g.writeNumberField("tasks", c.tasks.length);
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

    private static void strings(JsonGenerator g, String name, String[] values) throws IOException {
        if (values.length == 0) {
            return;
        }
        g.writeArrayFieldStart(name);
        for (String v : values) {
            g.writeString(v);
        }
        g.writeEndArray();
    }
}
