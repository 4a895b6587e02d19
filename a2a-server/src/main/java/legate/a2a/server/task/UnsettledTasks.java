package legate.a2a.server.task;

import java.time.Clock;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tasks found SUBMITTED or WORKING whose turns died with the process that ran them (a crash,
 * a {@code kill -9}, a stop that abandoned them, or, with several instances on one store, an
 * instance whose heartbeat stopped): no executor here resumes a turn, so each is ended FAILED with
 * a status message saying why. INPUT_REQUIRED and AUTH_REQUIRED tasks are left as they are: a
 * reply continues them, since a turn starts from the stored task.
 *
 * <p>Alone on its store, a server fails them all once when it starts, before it listens, so no
 * caller sees such a task WORKING ({@link #failAll}); in a group, the {@link InstanceGroup} picks
 * the tasks of the instances that are gone and ends each with {@link #failInterrupted} or
 * {@link #failLost}.
 */
public final class UnsettledTasks {
    private static final Logger LOG = LoggerFactory.getLogger(UnsettledTasks.class);

    private final TaskStore store;
    private final Clock clock;
    private volatile Consumer<String> ended = taskId -> {
    };

    public UnsettledTasks(TaskStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /**
     * Calls {@code then} with the id of each task this ends from now on, once its FAILED event is
     * stored. The server hands the task's webhooks to the push dispatcher so: in a group, the task
     * of a lost instance is failed by whichever instance found it lost, whose dispatcher does not
     * pump the task's webhooks yet (the lost instance did).
     */
    public void onEnded(Consumer<String> then) {
        this.ended = then;
    }

    /** Fails every unsettled task, each event durable before this returns; returns how many. */
    public int failAll() {
        int failed = 0;
        for (StoredTask t : store.unsettled()) {
            if (failInterrupted(t)) {
                failed++;
            }
        }
        if (failed > 0) {
            LOG.info("{} task(s) were running when the server last stopped; they are now FAILED as interrupted", failed);
        }
        return failed;
    }

    /**
     * Fails a task this instance's previous run left running: "interrupted by a restart".
     *
     * @return false when the task moved on meanwhile (another instance ended it first)
     */
    public boolean failInterrupted(StoredTask task) {
        if (task.readable()) {
            return end(new ParkedTask(task).interrupted(clock.instant()));
        }
        // DEFECT: a WORKING task whose stored record no longer decoded made every start exit 1. It is
        // failed like any other, its unreadable record replaced; if even that cannot be written, it
        // is left as it is with one log line, and the start goes on.
        try {
            boolean ended = end(new ParkedTask(task).interrupted(clock.instant()));
            if (ended) {
                UnreadableTasks.report(task, "it is now FAILED, saying so, in place of its record");
            }
            return ended;
        } catch (RuntimeException e) {
            UnreadableTasks.report(task, "it could not be marked FAILED either (" + e.getMessage() + "), so it is"
                    + " skipped");
            return false;
        }
    }

    /**
     * Fails a task that ran on an instance now gone: "instance lost", naming it.
     *
     * @param instance the lost instance, as a person recognises it (its id and URL)
     * @return false when the task moved on meanwhile (another instance ended it first)
     */
    public boolean failLost(StoredTask task, String instance) {
        return end(new ParkedTask(task).lost(instance, clock.instant()));
    }

    private boolean end(TaskEvent failed) {
        try {
            // Acknowledge after commit: the FAILED event is durable before any caller can read the task.
            store.append(failed, true);
            ended.accept(failed.taskId());
            return true;
        } catch (IllegalStateException e) {
            // Not the task's next event: another instance appended to it first (it ended it too, or its run went on).
            LOG.debug("task {} moved on before it could be failed: {}", failed.taskId(), e.getMessage());
            return false;
        }
    }
}
