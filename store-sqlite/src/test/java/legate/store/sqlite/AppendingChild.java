package legate.store.sqlite;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import legate.a2a.server.task.TaskEvent;
import lf.a2a.v1.TaskState;

/**
 * A process for {@link KillTest}: four threads append turns to the store in {@code args[0]} as fast
 * as they can and print {@code ack <taskId> <seq>} after each durable append returns, until killed.
 */
public final class AppendingChild {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    /** One append of a turn: the event, and whether the run would mark it durable. */
    record Step(TaskEvent event, boolean durable) {
    }

    private AppendingChild() {
    }

    public static void main(String[] args) {
        SqliteTaskStore store = SqliteTaskStore.open(Path.of(args[0]));
        for (int t = 0; t < 4; t++) {
            String worker = "w" + t;
            Thread.ofPlatform().start(() -> {
                for (int i = 0; ; i++) {
                    for (Step s : turn(worker + "-" + i)) {
                        store.append(s.event(), s.durable());
                        if (s.durable()) {
                            System.out.println("ack " + s.event().taskId() + " " + s.event().seq());
                        }
                    }
                }
            });
        }
    }

    /**
     * The appends of task {@code taskId}, always the same: it parks in INPUT_REQUIRED (durable, the
     * turn ends), resumes, publishes an artifact and completes (durable).
     */
    static List<Step> turn(String taskId) {
        TaskHistory h = new TaskHistory(taskId, "ctx-" + taskId.substring(0, 2), T0);
        return List.of(new Step(h.created(), false),
                new Step(h.status(TaskState.TASK_STATE_WORKING, T0, "Counting."), false),
                new Step(h.status(TaskState.TASK_STATE_INPUT_REQUIRED, T0, "Which text?"), true),
                new Step(h.status(TaskState.TASK_STATE_WORKING, T0.plusSeconds(1), "Counting again."), false),
                new Step(h.artifact("text-stats", "Words: 3."), false),
                new Step(h.status(TaskState.TASK_STATE_COMPLETED, T0.plusSeconds(2), "Done."), true));
    }
}
