package legate.a2a.server.task;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;

/**
 * A {@link TaskStore} in a concurrent map: tasks last as long as the process. Listing sorts the
 * matching tasks on every call, which is linear in the number of tasks and fine for one process.
 *
 * <p>Bounded: it keeps at most {@code maxFinished} finished (terminal) tasks with their logs and
 * forgets the oldest finished first, so a server under a steady load levels off instead of growing
 * by every task it served (about 1.2 KB each, measured). A queue of finished ids makes that O(1)
 * per append. Tasks that are not terminal are never forgotten: they are running, or waiting for a
 * reply (an INPUT_REQUIRED task continued later was never finished).
 *
 * <p>A task whose turn has ended is kept as its protobuf encoding, beside the few fields a listing
 * filters and sorts on. As objects, a finished Revisor task took about 4 KB of heap in a few
 * hundred objects, and every one was copied by each young collection until it reached the old
 * generation: under load that copying was most of the collector's pause time. Encoded, it is one
 * array of a few hundred bytes; a read decodes it, which costs microseconds. A task still in its
 * turn is kept as the object its run holds anyway, so an agent that streams many events does not
 * pay an encoding of the whole task for each.
 */
public final class InMemoryTaskStore implements TaskStore {
    /** How many finished tasks are kept when no bound is given (MAX_TASKS' default). */
    public static final int DEFAULT_MAX_FINISHED = 100_000;

    private final Map<String, Stored> tasks = new ConcurrentHashMap<>();
    private final Map<String, Log> logs = new ConcurrentHashMap<>();
    private final Map<String, String> contexts = new ConcurrentHashMap<>();
    private final Map<String, ContextOwner> contextOwners = new ConcurrentHashMap<>();
    /** taskId → configuration id → configuration, in the order they were registered. */
    private final Map<String, Map<String, StoredPushConfig>> pushConfigs = new ConcurrentHashMap<>();
    private final int maxFinished;
    // Ids of terminal tasks, oldest first. An id retention already deleted stays until it is polled
    // and counts meanwhile, so the bound holds; it is older than every id after it, so it goes first.
    private final Queue<String> finished = new ConcurrentLinkedQueue<>();
    private final AtomicInteger finishedCount = new AtomicInteger();

    /** A store that keeps at most {@link #DEFAULT_MAX_FINISHED} finished tasks. */
    public InMemoryTaskStore() {
        this(DEFAULT_MAX_FINISHED);
    }

    /** @param maxFinished how many finished tasks to keep at most, the oldest finished forgotten first */
    public InMemoryTaskStore(int maxFinished) {
        if (maxFinished < 1) {
            throw new IllegalArgumentException("maxFinished must be at least 1, got " + maxFinished);
        }
        this.maxFinished = maxFinished;
    }

    /** A task as kept: the task or its encoding, and what {@link #list} reads without decoding. */
    private record Stored(String id, String contextId, TaskState state, Instant statusTime, Task live, byte[] encoded,
                          long lastSeq, String owner) {
        static Stored of(Task t, long lastSeq, String owner) {
            TaskState state = t.getStatus().getState();
            boolean settled = TaskStates.endsTurn(state);
            return new Stored(t.getId(), t.getContextId(), state, key(t.getStatus().getTimestamp()),
                    settled ? null : t, settled ? t.toByteArray() : null, lastSeq, owner);
        }

        /** The task as stored; a stand-in saying why when its encoding no longer decodes. */
        StoredTask stored() {
            return live != null ? new StoredTask(live, lastSeq, owner)
                    : StoredTask.decode(encoded, id, contextId, state, lastSeq, owner);
        }
    }

    /**
     * A conversation's owner and how many stored tasks it has: the entry goes with its last task,
     * so the map is bounded as the tasks are. A claim without a task yet counts zero.
     */
    private record ContextOwner(String owner, int tasks) {
        ContextOwner plusTask() {
            return new ContextOwner(owner, tasks + 1);
        }
    }

    /** One task's events, encoded, in sequence order; the first is number 1. */
    private static final class Log {
        private final List<byte[]> events = new ArrayList<>();

        synchronized void add(long seq, StreamResponse event) {
            if (seq != events.size() + 1) {
                throw new IllegalStateException("event " + seq + " appended after event " + events.size());
            }
            events.add(event.toByteArray());
        }

        synchronized List<byte[]> after(long seq) {
            return seq >= events.size() ? List.of() : List.copyOf(events.subList((int) Math.max(0, seq), events.size()));
        }
    }

    // PROTOCOL (A2A §3.1.4): newest status first; the id breaks ties so pages never overlap.
    private static final Comparator<Stored> NEWEST_FIRST = Comparator
            .comparing(Stored::statusTime, Comparator.reverseOrder())
            .thenComparing(Stored::id);

    @Override
    public Optional<StoredTask> load(String taskId) {
        Stored s = tasks.get(taskId);
        return s == null ? Optional.empty() : Optional.of(s.stored());
    }

    @Override
    public void append(TaskEvent event, boolean durable) {
        String id = event.taskId();
        logs.computeIfAbsent(id, x -> new Log()).add(event.seq(), event.event());
        Stored previous = tasks.get(id);
        // The owner is the first event's, and never changes after.
        String owner = previous == null ? event.owner() : previous.owner();
        Stored after = Stored.of(event.task(), event.seq(), owner);
        Stored before = tasks.put(id, after);
        if (before == null) {
            contextOwners.merge(after.contextId(), new ContextOwner(owner, 1), (held, added) -> held.plusTask());
        }
        // PROTOCOL (A2A §3.1.3): a terminal task never changes again, so each task finishes once.
        if (TaskStates.isTerminal(after.state()) && (before == null || !TaskStates.isTerminal(before.state()))) {
            finished.add(id);
            if (finishedCount.incrementAndGet() > maxFinished) {
                forgetOldestFinished();
            }
        }
    }

    private void forgetOldestFinished() {
        while (finishedCount.get() > maxFinished) {
            String oldest = finished.poll();
            if (oldest == null) {
                return;
            }
            finishedCount.decrementAndGet();
            Stored s = tasks.get(oldest);
            if (s != null && TaskStates.isTerminal(s.state()) && tasks.remove(oldest, s)) {
                logs.remove(oldest);
                pushConfigs.remove(oldest);
                taskGone(s);
            }
        }
    }

    @Override
    public List<LoggedEvent> eventsAfter(String taskId, long afterSeq) {
        Log log = logs.get(taskId);
        if (log == null) {
            return List.of();
        }
        List<byte[]> encoded = log.after(afterSeq);
        List<LoggedEvent> out = new ArrayList<>(encoded.size());
        long seq = Math.max(0, afterSeq);
        for (byte[] e : encoded) {
            try {
                out.add(new LoggedEvent(++seq, StreamResponse.parseFrom(e)));
            } catch (InvalidProtocolBufferException ex) {
                throw new IllegalStateException("a logged event no longer decodes: " + taskId, ex);
            }
        }
        return out;
    }

    @Override
    public List<StoredTask> unsettled() {
        List<StoredTask> out = new ArrayList<>();
        for (Stored s : tasks.values()) {
            if (s.state() == TaskState.TASK_STATE_SUBMITTED || s.state() == TaskState.TASK_STATE_WORKING) {
                out.add(s.stored());
            }
        }
        return out;
    }

    @Override
    public int deleteTerminalBefore(Instant cutoff) {
        int deleted = 0;
        for (Stored s : tasks.values()) {
            if (TaskStates.isTerminal(s.state()) && s.statusTime().isBefore(cutoff) && tasks.remove(s.id(), s)) {
                logs.remove(s.id());
                pushConfigs.remove(s.id());
                taskGone(s);
                deleted++;
            }
        }
        return deleted;
    }

    @Override
    public void savePushConfig(StoredPushConfig config) {
        pushConfigs.compute(config.taskId(), (id, held) -> {
            Map<String, StoredPushConfig> out = held == null ? new LinkedHashMap<>() : new LinkedHashMap<>(held);
            out.put(config.id(), config);
            return out;
        });
    }

    @Override
    public List<StoredPushConfig> pushConfigs(String taskId) {
        Map<String, StoredPushConfig> held = pushConfigs.get(taskId);
        return held == null ? List.of() : List.copyOf(held.values());
    }

    @Override
    public boolean deletePushConfig(String taskId, String configId) {
        Map<String, StoredPushConfig> held = pushConfigs.get(taskId);
        if (held == null || !held.containsKey(configId)) {
            return false;
        }
        pushConfigs.computeIfPresent(taskId, (id, now) -> {
            Map<String, StoredPushConfig> out = new LinkedHashMap<>(now);
            out.remove(configId);
            return out.isEmpty() ? null : out;
        });
        return true;
    }

    @Override
    public void savePushProgress(StoredPushConfig progress) {
        pushConfigs.computeIfPresent(progress.taskId(), (id, held) -> {
            if (!held.containsKey(progress.id())) {
                return held;
            }
            Map<String, StoredPushConfig> out = new LinkedHashMap<>(held);
            out.put(progress.id(), progress);
            return out;
        });
    }

    @Override
    public List<StoredPushConfig> pushConfigsInFlight() {
        List<StoredPushConfig> out = new ArrayList<>();
        for (Map<String, StoredPushConfig> held : pushConfigs.values()) {
            for (StoredPushConfig c : held.values()) {
                Stored task = tasks.get(c.taskId());
                if (task == null || !TaskStates.isTerminal(task.state()) || c.deliveredSeq() < task.lastSeq()) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    private void taskGone(Stored s) {
        contextOwners.computeIfPresent(s.contextId(),
                (id, held) -> held.tasks() <= 1 ? null : new ContextOwner(held.owner(), held.tasks() - 1));
    }

    @Override
    public Optional<String> contextOwner(String contextId) {
        ContextOwner held = contextOwners.get(contextId);
        return held == null ? Optional.empty() : Optional.of(held.owner());
    }

    @Override
    public String claimContext(String contextId, String owner) {
        ContextOwner held = contextOwners.putIfAbsent(contextId, new ContextOwner(owner, 0));
        return held == null ? owner : held.owner();
    }

    @Override
    public Optional<String> contextState(String contextId) {
        return Optional.ofNullable(contexts.get(contextId));
    }

    @Override
    public void saveContextState(String contextId, String state) {
        contexts.put(contextId, state);
    }

    @Override
    public TaskPage list(TaskQuery query) {
        PageToken after = query.pageToken().isEmpty() ? null : PageToken.decode(query.pageToken());
        List<Stored> matching = new ArrayList<>();
        for (Stored t : tasks.values()) {
            if (!query.owner().equals(t.owner())) {
                continue;
            }
            if (!query.contextId().isEmpty() && !query.contextId().equals(t.contextId())) {
                continue;
            }
            if (query.status() != TaskState.TASK_STATE_UNSPECIFIED && query.status() != t.state()) {
                continue;
            }
            // PROTOCOL (a2a.proto ListTasksRequest.status_timestamp_after): "greater than or equal".
            if (query.statusAfter() != null && t.statusTime().isBefore(query.statusAfter())) {
                continue;
            }
            matching.add(t);
        }
        matching.sort(NEWEST_FIRST);
        int start = 0;
        if (after != null) {
            while (start < matching.size() && !sortsAfter(matching.get(start), after)) {
                start++;
            }
        }
        int end = Math.min(matching.size(), start + query.pageSize());
        List<Task> page = new ArrayList<>(end - start);
        for (Stored t : matching.subList(start, end)) {
            StoredTask stored = t.stored();
            if (stored.readable()) {
                page.add(stored.task());
            } else {
                UnreadableTasks.report(stored, "ListTasks leaves it out");
            }
        }
        String next = end < matching.size() ? tokenOf(matching.get(end - 1)).encode() : "";
        return new TaskPage(List.copyOf(page), next, matching.size());
    }

    private static Instant key(Timestamp ts) {
        return Instant.ofEpochSecond(ts.getSeconds(), ts.getNanos());
    }

    private static PageToken tokenOf(Stored t) {
        return new PageToken(t.statusTime(), t.id());
    }

    /** True when {@code t} sorts after {@code after}, i.e. belongs on a later page. */
    private static boolean sortsAfter(Stored t, PageToken after) {
        int c = after.time().compareTo(t.statusTime());
        return c > 0 || (c == 0 && after.id().compareTo(t.id()) < 0);
    }
}
