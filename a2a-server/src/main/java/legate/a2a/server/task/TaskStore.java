package legate.a2a.server.task;

import java.util.Optional;
import lf.a2a.v1.Task;

/**
 * Where tasks live between and after calls: a task outlives the request that created it
 * (A2A §3.1.3). Implementations are thread-safe; {@link #save} replaces the whole task.
 */
public interface TaskStore {

    Optional<Task> get(String taskId);

    void save(Task task);

    /**
     * One page of the tasks matching the query, newest status first (A2A §3.1.4).
     *
     * @throws IllegalArgumentException when the page token was not issued by this store
     */
    TaskPage list(TaskQuery query);
}
