package legate.a2a.server.task;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import org.junit.jupiter.api.Test;

/**
 * The store keeps a finished task encoded and a running one as it is; a caller must not be able
 * to tell: what is read back, listed and paged is what was saved (A2A §3.1.3, §3.1.4).
 */
class InMemoryTaskStoreTest {
    private final InMemoryTaskStore store = new InMemoryTaskStore();
    private final Map<String, Long> seqs = new HashMap<>();

    /** Stores {@code t} as its task's next event. */
    private void save(Task t) {
        save(store, t);
    }

    private void save(TaskStore into, Task t) {
        long seq = seqs.merge(t.getId(), 1L, Long::sum);
        into.append(new TaskEvent(seq, StreamResponse.newBuilder().setTask(t).build(), t), false);
    }

    private static int total(TaskStore s) {
        return s.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 100, "")).totalSize();
    }

    private static Task task(String id, String context, TaskState state, long second) {
        return Task.newBuilder().setId(id).setContextId(context)
                .setStatus(TaskStatus.newBuilder().setState(state)
                        .setTimestamp(Timestamp.newBuilder().setSeconds(second).setNanos(5_000_000)))
                .addHistory(Message.newBuilder().setMessageId("m-" + id).setRole(Role.ROLE_USER)
                        .addParts(Part.newBuilder().setText("Grüße, " + id)))
                .addArtifacts(Artifact.newBuilder().setArtifactId("a").addParts(Part.newBuilder().setText("x")))
                .build();
    }

    @Test
    void aTaskReadsBackAsSavedWhetherItsTurnIsRunningOrOver() {
        Task working = task("t1", "c1", TaskState.TASK_STATE_WORKING, 100);
        save(working);
        assertThat(store.get("t1")).contains(working);
        Task done = working.toBuilder().setStatus(working.getStatus().toBuilder()
                .setState(TaskState.TASK_STATE_COMPLETED)).build();
        save(done);
        assertThat(store.get("t1")).contains(done);
        Task asking = task("t2", "c1", TaskState.TASK_STATE_INPUT_REQUIRED, 101);
        save(asking);
        assertThat(store.get("t2")).contains(asking);
        assertThat(store.get("nope")).isEmpty();
    }

    @Test
    void listingFiltersAndPagesFinishedAndRunningTasksAlike() {
        save(task("a", "c1", TaskState.TASK_STATE_COMPLETED, 100));
        save(task("b", "c1", TaskState.TASK_STATE_WORKING, 200));
        save(task("c", "c2", TaskState.TASK_STATE_COMPLETED, 300));
        save(task("d", "c1", TaskState.TASK_STATE_FAILED, 400));

        TaskPage first = store.list(new TaskQuery("c1", TaskState.TASK_STATE_UNSPECIFIED, null, 2, ""));
        assertThat(first.tasks()).extracting(Task::getId).containsExactly("d", "b");
        assertThat(first.totalSize()).isEqualTo(3);
        TaskPage second = store.list(new TaskQuery("c1", TaskState.TASK_STATE_UNSPECIFIED, null, 2, first.nextPageToken()));
        assertThat(second.tasks()).extracting(Task::getId).containsExactly("a");
        assertThat(second.tasks().get(0)).isEqualTo(task("a", "c1", TaskState.TASK_STATE_COMPLETED, 100));
        assertThat(second.nextPageToken()).isEmpty();

        assertThat(store.list(new TaskQuery("", TaskState.TASK_STATE_COMPLETED, null, 10, "")).tasks())
                .extracting(Task::getId).containsExactly("c", "a");
        assertThat(store.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, Instant.ofEpochSecond(200, 5_000_000), 10, ""))
                .tasks()).extracting(Task::getId).containsExactly("d", "c", "b");
    }

    @Test
    void aBoundedStoreForgetsTheOldestFinishedTasksFirstWithTheirLogs() {
        // Bounded memory: at most MAX_TASKS finished tasks, so a steady load levels off.
        InMemoryTaskStore bounded = new InMemoryTaskStore(3);
        for (int i = 0; i < 10; i++) {
            save(bounded, task("w" + i, "c", TaskState.TASK_STATE_WORKING, 100 + i));
        }
        for (int i = 0; i < 10; i++) {
            save(bounded, task("w" + i, "c", TaskState.TASK_STATE_COMPLETED, 200 + i));
        }
        assertThat(total(bounded)).isEqualTo(3);
        assertThat(bounded.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "")).tasks())
                .extracting(Task::getId).containsExactly("w9", "w8", "w7");
        assertThat(bounded.get("w6")).isEmpty();
        assertThat(bounded.eventsAfter("w6", 0)).isEmpty();
        assertThat(bounded.eventsAfter("w9", 0)).hasSize(2);
    }

    @Test
    void tasksThatAreNotFinishedAreNeverForgottenNorCounted() {
        InMemoryTaskStore bounded = new InMemoryTaskStore(2);
        save(bounded, task("asking", "c", TaskState.TASK_STATE_INPUT_REQUIRED, 100));
        save(bounded, task("running", "c", TaskState.TASK_STATE_WORKING, 101));
        for (int i = 0; i < 5; i++) {
            save(bounded, task("done" + i, "c", TaskState.TASK_STATE_COMPLETED, 102 + i));
        }
        // The task that asked is continued after all the others finished: it is finished once, now.
        save(bounded, task("asking", "c", TaskState.TASK_STATE_WORKING, 200));
        save(bounded, task("asking", "c", TaskState.TASK_STATE_COMPLETED, 201));
        assertThat(bounded.get("running")).isPresent();
        assertThat(bounded.get("asking")).isPresent();
        assertThat(bounded.get("done4")).isPresent();
        assertThat(total(bounded)).isEqualTo(3);
    }

    @Test
    void retentionDeletesOnlyTerminalTasksOlderThanTheCutoff() {
        save(task("old-done", "c", TaskState.TASK_STATE_COMPLETED, 100));
        save(task("old-failed", "c", TaskState.TASK_STATE_FAILED, 100));
        save(task("old-asking", "c", TaskState.TASK_STATE_INPUT_REQUIRED, 100));
        save(task("old-running", "c", TaskState.TASK_STATE_WORKING, 100));
        save(task("new-done", "c", TaskState.TASK_STATE_COMPLETED, 300));
        assertThat(store.deleteTerminalBefore(Instant.ofEpochSecond(200))).isEqualTo(2);
        assertThat(store.get("old-done")).isEmpty();
        assertThat(store.eventsAfter("old-done", 0)).isEmpty();
        assertThat(store.get("old-asking")).isPresent();
        assertThat(store.get("old-running")).isPresent();
        assertThat(store.get("new-done")).isPresent();
    }

    @Test
    void ownersFilterListingAndAConversationsOwnerGoesWithItsLastTask() {
        // README "Security": a task is its first event's principal's; ListTasks lists one owner's;
        // the conversation's owner is kept while it has a task, so the memory it takes is bounded.
        InMemoryTaskStore small = new InMemoryTaskStore(1);
        Task alices = task("t1", "c1", TaskState.TASK_STATE_COMPLETED, 100);
        small.append(new TaskEvent(1, StreamResponse.newBuilder().setTask(alices).build(), alices, "alice"), false);
        Task bobs = task("t2", "c2", TaskState.TASK_STATE_WORKING, 200);
        small.append(new TaskEvent(1, StreamResponse.newBuilder().setTask(bobs).build(), bobs, "bob"), false);
        assertThat(small.load("t1")).get().extracting(StoredTask::owner).isEqualTo("alice");
        assertThat(small.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "", "bob")).tasks())
                .extracting(Task::getId).containsExactly("t2");
        assertThat(small.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, "")).totalSize()).isZero();
        assertThat(small.contextOwner("c1")).contains("alice");
        assertThat(small.claimContext("c2", "alice")).isEqualTo("bob");
        assertThat(small.claimContext("fresh", "alice")).isEqualTo("alice");

        Task third = task("t3", "c3", TaskState.TASK_STATE_COMPLETED, 300);
        small.append(new TaskEvent(1, StreamResponse.newBuilder().setTask(third).build(), third, "carol"), false);
        assertThat(small.load("t1")).as("forgotten: one finished task is kept").isEmpty();
        assertThat(small.contextOwner("c1")).isEmpty();
    }
}
