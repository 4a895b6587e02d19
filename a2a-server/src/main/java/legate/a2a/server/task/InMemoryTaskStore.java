package legate.a2a.server.task;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import legate.a2a.model.TaskStates;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;

/**
 * A {@link TaskStore} in a concurrent map: tasks last as long as the process. Listing sorts the
 * matching tasks on every call, which is linear in the number of tasks and fine for one process.
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
    private final Map<String, Stored> tasks = new ConcurrentHashMap<>();

    /** A task as kept: the task or its encoding, and what {@link #list} reads without decoding. */
    private record Stored(String id, String contextId, TaskState state, Instant statusTime, Task live, byte[] encoded) {
        static Stored of(Task t) {
            TaskState state = t.getStatus().getState();
            boolean settled = TaskStates.endsTurn(state);
            return new Stored(t.getId(), t.getContextId(), state, key(t.getStatus().getTimestamp()),
                    settled ? null : t, settled ? t.toByteArray() : null);
        }

        Task task() {
            if (live != null) {
                return live;
            }
            try {
                return Task.parseFrom(encoded);
            } catch (InvalidProtocolBufferException e) {
                throw new IllegalStateException("a stored task no longer decodes: " + id, e);
            }
        }
    }

    // PROTOCOL (A2A §3.1.4): newest status first; the id breaks ties so pages never overlap.
    private static final Comparator<Stored> NEWEST_FIRST = Comparator
            .comparing(Stored::statusTime, Comparator.reverseOrder())
            .thenComparing(Stored::id);

    @Override
    public Optional<Task> get(String taskId) {
        Stored s = tasks.get(taskId);
        return s == null ? Optional.empty() : Optional.of(s.task());
    }

    @Override
    public void save(Task task) {
        tasks.put(task.getId(), Stored.of(task));
    }

    @Override
    public TaskPage list(TaskQuery query) {
        Cursor after = query.pageToken().isEmpty() ? null : Cursor.decode(query.pageToken());
        List<Stored> matching = new ArrayList<>();
        for (Stored t : tasks.values()) {
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
            while (start < matching.size() && !after.isBefore(matching.get(start))) {
                start++;
            }
        }
        int end = Math.min(matching.size(), start + query.pageSize());
        List<Task> page = new ArrayList<>(end - start);
        for (Stored t : matching.subList(start, end)) {
            page.add(t.task());
        }
        String next = end < matching.size() ? Cursor.of(matching.get(end - 1)).encode() : "";
        return new TaskPage(List.copyOf(page), next, matching.size());
    }

    private static Instant key(Timestamp ts) {
        return Instant.ofEpochSecond(ts.getSeconds(), ts.getNanos());
    }

    /** A page token: the sort key of the last task of the previous page, opaque to callers. */
    private record Cursor(Instant time, String id) {
        static Cursor of(Stored t) {
            return new Cursor(t.statusTime(), t.id());
        }

        /** True when {@code t} sorts after this cursor, i.e. belongs on a later page. */
        boolean isBefore(Stored t) {
            int c = time.compareTo(t.statusTime());
            return c > 0 || (c == 0 && id.compareTo(t.id()) < 0);
        }

        String encode() {
            String raw = time.getEpochSecond() + "." + time.getNano() + "|" + id;
            return Base64.getUrlEncoder().withoutPadding().encodeToString(raw.getBytes(StandardCharsets.UTF_8));
        }

        static Cursor decode(String token) {
            try {
                String raw = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
                int bar = raw.indexOf('|');
                int dot = raw.indexOf('.');
                if (bar < 0 || dot < 0 || dot > bar) {
                    throw new IllegalArgumentException("malformed");
                }
                Instant time = Instant.ofEpochSecond(Long.parseLong(raw.substring(0, dot)),
                        Long.parseLong(raw.substring(dot + 1, bar)));
                return new Cursor(time, raw.substring(bar + 1));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("invalid pageToken: it was not issued by this server");
            }
        }
    }
}
