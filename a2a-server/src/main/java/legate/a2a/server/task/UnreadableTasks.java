package legate.a2a.server.task;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stored tasks found not to decode ({@link StoredTask#readable()} false), as the log reports
 * them: one line per task for the life of the process, however often a listing or a read meets it,
 * and never a stack trace. The store, the listing and the read carry on with the other tasks.
 *
 * <p>DEFECT: one task that no longer decoded made every ListTasks of its owner answer -32603 with
 * a stack trace of some 500 lines in the log, each time.
 */
public final class UnreadableTasks {
    private static final Logger LOG = LoggerFactory.getLogger(UnreadableTasks.class);
    /** Past this many distinct tasks no more are remembered, so the set stays bounded (a new one is then logged each time). */
    private static final int REMEMBERED = 10_000;
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    private UnreadableTasks() {
    }

    /**
     * Logs, once per task, that {@code task} is set aside.
     *
     * @param what what is being done without it ("ListTasks skips it")
     */
    public static void report(StoredTask task, String what) {
        String id = task.task().getId();
        boolean seen = REPORTED.size() < REMEMBERED ? !REPORTED.add(id) : REPORTED.contains(id);
        if (seen) {
            return;
        }
        LOG.warn("stored task {} is set aside: {}; {}", id, task.unreadable(), what);
    }
}
