package legate.a2a.server.task;

import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tasks a restart finds SUBMITTED or WORKING: their turns died with the process that ran them
 * (a crash, a {@code kill -9}, or a stop that abandoned them), and no executor here resumes a turn,
 * so each is ended FAILED with a status message saying so. INPUT_REQUIRED and AUTH_REQUIRED tasks
 * are left as they are: a reply continues them, since a turn starts from the stored task.
 *
 * <p>Run once when a server starts, before it listens, so no caller sees such a task WORKING.
 */
public final class UnsettledTasks {
    private static final Logger LOG = LoggerFactory.getLogger(UnsettledTasks.class);

    private final TaskStore store;
    private final Clock clock;

    public UnsettledTasks(TaskStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** Fails every unsettled task, each event durable before this returns; returns how many. */
    public int failAll() {
        int failed = 0;
        for (StoredTask t : store.unsettled()) {
            // Acknowledge after commit: the FAILED event is durable before any caller can read the task.
            store.append(new ParkedTask(t).interrupted(clock.instant()), true);
            failed++;
        }
        if (failed > 0) {
            LOG.info("{} task(s) were running when the server last stopped; they are now FAILED as interrupted", failed);
        }
        return failed;
    }
}
