package legate.a2a.server.task;

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
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;

/**
 * A {@link TaskStore} in a concurrent map: tasks last as long as the process. Listing sorts the
 * matching tasks on every call, which is linear in the number of tasks and fine for one process.
 */
public final class InMemoryTaskStore implements TaskStore {
    private final Map<String, Task> tasks = new ConcurrentHashMap<>();

    // PROTOCOL (A2A §3.1.4): newest status first; the id breaks ties so pages never overlap.
    private static final Comparator<Task> NEWEST_FIRST = Comparator
            .comparing((Task t) -> key(t.getStatus().getTimestamp()), Comparator.reverseOrder())
            .thenComparing(Task::getId);

    @Override
    public Optional<Task> get(String taskId) {
        return Optional.ofNullable(tasks.get(taskId));
    }

    @Override
    public void save(Task task) {
        tasks.put(task.getId(), task);
    }

    @Override
    public TaskPage list(TaskQuery query) {
        Cursor after = query.pageToken().isEmpty() ? null : Cursor.decode(query.pageToken());
        List<Task> matching = new ArrayList<>();
        for (Task t : tasks.values()) {
            if (!query.contextId().isEmpty() && !query.contextId().equals(t.getContextId())) {
                continue;
            }
            if (query.status() != TaskState.TASK_STATE_UNSPECIFIED && query.status() != t.getStatus().getState()) {
                continue;
            }
            // PROTOCOL (a2a.proto ListTasksRequest.status_timestamp_after): "greater than or equal".
            if (query.statusAfter() != null && key(t.getStatus().getTimestamp()).isBefore(query.statusAfter())) {
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
        List<Task> page = List.copyOf(matching.subList(start, end));
        String next = end < matching.size() ? Cursor.of(page.get(page.size() - 1)).encode() : "";
        return new TaskPage(page, next, matching.size());
    }

    private static Instant key(Timestamp ts) {
        return Instant.ofEpochSecond(ts.getSeconds(), ts.getNanos());
    }

    /** A page token: the sort key of the last task of the previous page, opaque to callers. */
    private record Cursor(Instant time, String id) {
        static Cursor of(Task t) {
            return new Cursor(key(t.getStatus().getTimestamp()), t.getId());
        }

        /** True when {@code t} sorts after this cursor, i.e. belongs on a later page. */
        boolean isBefore(Task t) {
            Instant tt = key(t.getStatus().getTimestamp());
            int c = time.compareTo(tt);
            return c > 0 || (c == 0 && id.compareTo(t.getId()) < 0);
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
