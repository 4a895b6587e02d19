package legate.a2a.server.observe;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;
import lf.a2a.v1.TaskState;

/**
 * What an A2A server counts, in one Prometheus registry: requests by binding, method and outcome
 * with their latency, the turns running now by state, how turns ended and how long they took, the
 * store's latency, and push deliveries. The bridge registers its own meters in {@link #registry()}.
 *
 * <p>Every meter a request touches is looked up in maps keyed by values the request already holds
 * (the method's name, the error code), so recording allocates nothing on the common path.
 */
public final class ServerMetrics {
    /** Latency buckets, from a cached read to a long turn. */
    private static final Duration[] BUCKETS = {
            Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
            Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10),
            Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(300)};
    /** The outcome label of a request answered without an error. */
    public static final int OK = 0;
    /** The outcome label of a request another instance answered (A2A_INSTANCE_URL forwarding). */
    public static final int FORWARDED = 1;

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    /** binding → method → outcome code → timer. */
    private final Map<String, Map<String, Map<Integer, Timer>>> requests = new ConcurrentHashMap<>();
    private final Map<TaskState, AtomicLong> running = new EnumMap<>(TaskState.class);
    private final Map<String, Timer> turns = new ConcurrentHashMap<>();
    private final Timer storeAppend;
    private final Timer storeCommit;
    private final Timer storeRead;
    private final Counter pushDelivered;
    private final Counter pushFailed;
    private final Counter pushRetried;

    public ServerMetrics() {
        for (TaskState s : TaskState.values()) {
            if (s == TaskState.TASK_STATE_UNSPECIFIED || s == TaskState.UNRECOGNIZED) {
                continue;
            }
            AtomicLong count = new AtomicLong();
            running.put(s, count);
            Gauge.builder("legate.a2a.tasks.running", count, AtomicLong::get)
                    .description("Tasks whose turn runs now, by the state they are in")
                    .tag("state", stateLabel(s)).register(registry);
        }
        this.storeAppend = storeTimer("append");
        this.storeCommit = storeTimer("commit");
        this.storeRead = storeTimer("read");
        this.pushDelivered = pushCounter("delivered");
        this.pushFailed = pushCounter("failed");
        this.pushRetried = pushCounter("retried");
    }

    /** The registry the scrape reads; other parts of Legate (the bridge) add their meters here. */
    public MeterRegistry registry() {
        return registry;
    }

    /** The Prometheus text exposition (format 0.0.4) of every meter. */
    public String scrape() {
        return registry.scrape();
    }

    /** Counts the open SSE streams of a binding, read at each scrape. */
    public void watchOpenStreams(String binding, IntSupplier streams) {
        Gauge.builder("legate.a2a.open.streams", streams, IntSupplier::getAsInt)
                .description("SSE streams being written now").tag("binding", binding)
                // Micrometer holds a gauge's object weakly; the method reference would be collected.
                .strongReference(true).register(registry);
    }

    /**
     * The time (Unix seconds) by which the client authorities' revocation lists must be published
     * again, the soonest of them, read at each scrape: past it, every certificate of that authority
     * is refused, so an alert on it comes before the refusals do.
     */
    public void watchClientRevocationLists(DoubleSupplier nextUpdateEpochSeconds) {
        Gauge.builder("legate.tls.client.crl.next.update", nextUpdateEpochSeconds, DoubleSupplier::getAsDouble)
                .description("When the soonest client certificate revocation list (A2A_CLIENT_CRL) is due, Unix time")
                .baseUnit("seconds").strongReference(true).register(registry);
    }

    /**
     * One answered request.
     *
     * @param method the A2A method, or "unknown" / "none" when the request named none Legate serves
     * @param outcome {@link #OK} or the JSON-RPC error code it was answered with
     */
    public void request(String binding, String method, int outcome, long nanos) {
        // Plain gets first: a capturing lambda handed to computeIfAbsent would allocate on every request.
        Map<String, Map<Integer, Timer>> byMethod = requests.get(binding);
        Map<Integer, Timer> byOutcome = byMethod == null ? null : byMethod.get(method);
        Timer timer = byOutcome == null ? null : byOutcome.get(outcome);
        if (timer == null) {
            timer = requests.computeIfAbsent(binding, b -> new ConcurrentHashMap<>())
                    .computeIfAbsent(method, m -> new ConcurrentHashMap<>())
                    .computeIfAbsent(outcome, o -> Timer.builder("legate.a2a.requests")
                            .description("A2A requests answered, by binding, method and outcome (ok, forwarded or the error code)")
                            .tags("binding", binding, "method", method, "outcome", outcomeLabel(o))
                            .serviceLevelObjectives(BUCKETS).register(registry));
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    private static String outcomeLabel(int outcome) {
        return outcome == OK ? "ok" : outcome == FORWARDED ? "forwarded" : Integer.toString(outcome);
    }

    /** A running turn's task moved from {@code from} (null: none yet) to {@code to} (null: the turn ended). */
    public void moved(TaskState from, TaskState to) {
        if (from != null) {
            AtomicLong c = running.get(from);
            if (c != null) {
                c.decrementAndGet();
            }
        }
        if (to != null) {
            AtomicLong c = running.get(to);
            if (c != null) {
                c.incrementAndGet();
            }
        }
    }

    /**
     * A turn ended after {@code nanos}.
     *
     * @param how the state the task was left in, "message" for a Message answer, "abandoned" when the server stopped
     */
    public void turnEnded(String how, long nanos) {
        Timer timer = turns.get(how);
        if (timer == null) {
            timer = turns.computeIfAbsent(how, h -> Timer.builder("legate.a2a.turns")
                    .description("Turns of tasks that ended, by how they ended, and how long they ran")
                    .tag("ended", h).serviceLevelObjectives(BUCKETS).register(registry));
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** A store call took {@code nanos}: an append, an append that waited for its commit, or a read. */
    public void storeAppend(boolean durable, long nanos) {
        (durable ? storeCommit : storeAppend).record(nanos, TimeUnit.NANOSECONDS);
    }

    public void storeRead(long nanos) {
        storeRead.record(nanos, TimeUnit.NANOSECONDS);
    }

    /**
     * The push dispatcher calls this once per event and webhook when it is done with it: delivered
     * (a 2xx answer), or failed (given up after its last attempt, the failure logged beside it);
     * {@code legate_push_deliveries_total{outcome}}.
     */
    public void pushDelivery(boolean delivered) {
        (delivered ? pushDelivered : pushFailed).increment();
    }

    /** One failed attempt of a push delivery that will be tried again: {@code outcome="retried"}. */
    public void pushRetry() {
        pushRetried.increment();
    }

    /** "input_required" for TASK_STATE_INPUT_REQUIRED; made once per state, not per turn. */
    public static String stateLabel(TaskState s) {
        return STATE_LABELS.get(s);
    }

    private static final Map<TaskState, String> STATE_LABELS = new EnumMap<>(TaskState.class);

    static {
        for (TaskState s : TaskState.values()) {
            STATE_LABELS.put(s, s.name().replace("TASK_STATE_", "").toLowerCase(Locale.ROOT));
        }
    }

    private Timer storeTimer(String op) {
        return Timer.builder("legate.store.operations")
                .description("Task store calls: append, append awaiting its commit, read")
                .tag("op", op).serviceLevelObjectives(BUCKETS).register(registry);
    }

    private Counter pushCounter(String outcome) {
        return Counter.builder("legate.push.deliveries")
                .description("Push notification deliveries, by outcome").tag("outcome", outcome).register(registry);
    }
}
