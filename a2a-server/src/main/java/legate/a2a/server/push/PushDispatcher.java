package legate.a2a.server.push;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;
import legate.a2a.model.TaskStates;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.task.StoredPushConfig;
import legate.a2a.server.task.TaskStore;

/**
 * Sends every task's events to its webhooks: one {@link WebhookPump} per configuration, woken by
 * each append of its task and run on a virtual thread of its own while it has work. A task's append
 * only wakes pumps, never waits for one, so no webhook slows the task, another task or another
 * webhook; what a pump has to send stays in the store until it is sent.
 *
 * <p>A pump lives while its task may still produce events or has events to deliver; once a task is
 * terminal and every event has been sent, its pumps are let go (the configurations stay in the store
 * for Get and List, until the task goes).
 */
public final class PushDispatcher implements AutoCloseable {
    private final TaskStore store;
    private final WebhookPost post;
    private final PushPolicy policy;
    private final Clock clock;
    private final RandomGenerator random;
    private final ServerMetrics metrics;
    /** taskId → configuration id → its pump. */
    private final Map<String, Map<String, WebhookPump>> pumps = new ConcurrentHashMap<>();
    private final ExecutorService threads = Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("legate-push-", 0).factory());
    private volatile boolean closed;

    PushDispatcher(TaskStore store, WebhookPost post, PushPolicy policy, Clock clock, RandomGenerator random,
                   ServerMetrics metrics) {
        this.store = store;
        this.post = post;
        this.policy = policy;
        this.clock = clock;
        this.random = random;
        this.metrics = metrics;
    }

    /**
     * Resumes what the last run of the store left: every configuration {@code ours} accepts whose
     * task may still send, or has events unsent.
     */
    void start(Predicate<StoredPushConfig> ours) {
        for (StoredPushConfig c : store.pushConfigsInFlight()) {
            if (ours.test(c)) {
                track(c).wake();
            }
        }
    }

    /** A configuration was registered (or replaced): its pump starts from the configuration's cursor. */
    void registered(StoredPushConfig config) {
        track(config).wake();
    }

    private WebhookPump track(StoredPushConfig config) {
        WebhookPump pump = new WebhookPump(this, config);
        WebhookPump before = pumps.computeIfAbsent(config.taskId(), id -> new ConcurrentHashMap<>())
                .put(config.id(), pump);
        if (before != null) {
            before.remove();
        }
        return pump;
    }

    /**
     * The task's turn is about to run here: a pump for each of its configurations that has none
     * here yet (one registered on an instance that is gone), from its stored cursor.
     */
    void adopt(String taskId) {
        if (closed) {
            return;
        }
        for (StoredPushConfig c : store.pushConfigs(taskId)) {
            WebhookPump pump = new WebhookPump(this, c);
            if (pumps.computeIfAbsent(taskId, id -> new ConcurrentHashMap<>()).putIfAbsent(c.id(), pump) == null) {
                pump.wake();
            }
        }
    }

    /** A configuration was deleted: its pump stops before its next attempt. */
    void removed(String taskId, String configId) {
        Map<String, WebhookPump> ofTask = pumps.get(taskId);
        WebhookPump pump = ofTask == null ? null : ofTask.remove(configId);
        if (pump != null) {
            pump.remove();
        }
    }

    /** The task has a new event in its log. */
    void appended(String taskId) {
        Map<String, WebhookPump> ofTask = pumps.get(taskId);
        if (ofTask != null) {
            for (WebhookPump pump : ofTask.values()) {
                pump.wake();
            }
        }
    }

    /** 410 Gone: the configuration goes from the store and the pump from here. */
    void gone(WebhookPump pump) {
        pump.remove();
        forget(pump);
        store.deletePushConfig(pump.taskId(), pump.id());
    }

    /**
     * The pump found nothing to send: let go of it if its task will send nothing more (terminal),
     * or its configuration is gone (the task was swept by retention). A task not stored yet is a
     * new one whose first event is still to come: its pump stays.
     */
    void idle(WebhookPump pump) {
        boolean finished = store.load(pump.taskId())
                .map(t -> TaskStates.isTerminal(t.task().getStatus().getState())).orElse(false);
        if (finished || store.pushConfigs(pump.taskId()).stream().noneMatch(c -> c.id().equals(pump.id()))) {
            forget(pump);
        }
    }

    private void forget(WebhookPump pump) {
        Map<String, WebhookPump> ofTask = pumps.get(pump.taskId());
        if (ofTask != null) {
            ofTask.remove(pump.id(), pump);
            if (ofTask.isEmpty()) {
                pumps.remove(pump.taskId(), ofTask);
            }
        }
    }

    /** Runs a pump's work on a thread of its own; false when the dispatcher is closed. */
    boolean run(Runnable work) {
        if (closed) {
            return false;
        }
        try {
            threads.execute(work);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    /** How many configurations have a pump now (tests: a finished task's pumps are let go). */
    public int tracked() {
        return pumps.values().stream().mapToInt(Map::size).sum();
    }

    boolean closed() {
        return closed;
    }

    TaskStore store() {
        return store;
    }

    WebhookPost post() {
        return post;
    }

    PushPolicy policy() {
        return policy;
    }

    Clock clock() {
        return clock;
    }

    RandomGenerator random() {
        return random;
    }

    ServerMetrics metrics() {
        return metrics;
    }

    /** Stops every pump: an attempt in flight is interrupted, what is unsent stays in the store for the next start. */
    @Override
    public void close() {
        closed = true;
        threads.shutdownNow();
        try {
            // Before the store closes under them; an attempt in flight ends at its interrupt.
            threads.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
