package legate.a2a.server.task;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import lf.a2a.v1.StreamResponse;

/**
 * The SubscribeToTask streams that follow a task across its turns ({@link TaskFollower}), by task
 * id: where a turn of this instance, and the server ending a parked task, hand each event after
 * the turn's own streams. A task has an entry only while someone follows it, so a server that has
 * seen a million tasks keeps nothing for them.
 */
final class Followers {
    private final Map<String, Set<TaskFollower>> byTask = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** Registers {@code f}; false once the server is stopping (then it is not kept). */
    boolean add(TaskFollower f) {
        byTask.compute(f.taskId(), (id, set) -> {
            Set<TaskFollower> s = set == null ? ConcurrentHashMap.newKeySet() : set;
            s.add(f);
            return s;
        });
        if (closed) {
            remove(f);
            return false;
        }
        return true;
    }

    void remove(TaskFollower f) {
        byTask.computeIfPresent(f.taskId(), (id, set) -> {
            set.remove(f);
            return set.isEmpty() ? null : set;
        });
    }

    /** Hands an event of the task, as appended under {@code seq}, to each of its followers. */
    void published(String taskId, StreamResponse event, long seq) {
        Set<TaskFollower> set = byTask.get(taskId);
        if (set != null) {
            for (TaskFollower f : set) {
                f.published(event, seq);
            }
        }
    }

    /** How many streams follow a task now. */
    int count() {
        int n = 0;
        for (Set<TaskFollower> s : byTask.values()) {
            n += s.size();
        }
        return n;
    }

    /** The server is stopping: every stream ends cleanly, and one opened from now on ends after its snapshot. */
    void close() {
        closed = true;
        for (Set<TaskFollower> s : byTask.values()) {
            for (TaskFollower f : s) {
                f.end();
            }
        }
    }
}
