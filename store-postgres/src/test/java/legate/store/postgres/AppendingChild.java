package legate.store.postgres;

import static legate.store.postgres.TestTasks.artifact;
import static legate.store.postgres.TestTasks.moved;
import static legate.store.postgres.TestTasks.opened;
import static legate.store.postgres.TestTasks.status;
import static legate.store.postgres.TestTasks.task;

import java.util.ArrayList;
import java.util.List;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;

/**
 * A process that runs turns against a PostgreSQL store the way a task's run does (four events,
 * then a durable fifth that ends the turn) on several threads, and prints {@code acked ID} once
 * the durable append of task ID has returned. {@link GroupCommitTest} kills it with SIGKILL and
 * checks every acknowledged turn is in the database.
 *
 * <p>Arguments: the DATABASE_URL, and how many turns each of its 8 threads runs at most (it is
 * killed long before).
 */
public final class AppendingChild {
    private AppendingChild() {
    }

    public static void main(String[] args) throws InterruptedException {
        PostgresTaskStore store = PostgresTaskStore.open(DatabaseUrl.parse(args[0]));
        int turns = Integer.parseInt(args[1]);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            String worker = "w" + w;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 1; i <= turns; i++) {
                    String id = worker + "-" + i;
                    Task t = task(id, TaskState.TASK_STATE_SUBMITTED);
                    store.append(opened(1, t), false);
                    store.append(status(2, moved(t, TaskState.TASK_STATE_WORKING, 1)), false);
                    store.append(artifact(3, moved(t, TaskState.TASK_STATE_WORKING, 1), "one"), false);
                    store.append(artifact(4, moved(t, TaskState.TASK_STATE_WORKING, 1), "two"), false);
                    store.append(status(5, moved(t, TaskState.TASK_STATE_COMPLETED, 2)), true);
                    synchronized (System.out) {
                        System.out.println("acked " + id);
                        System.out.flush();
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        store.close();
    }
}
