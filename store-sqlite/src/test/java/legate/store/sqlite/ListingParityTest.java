package legate.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.TaskEvent;
import legate.a2a.server.task.TaskPage;
import legate.a2a.server.task.TaskQuery;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The in-memory store defines ListTasks (A2A §3.1.4: newest status first, the id breaking ties,
 * the filters, the pages and their tokens); fed the same events, this store must answer every page
 * of every query the same, tokens and totals included. Status times repeat on purpose: the run
 * stamps milliseconds, so ties are the common case under load.
 */
class ListingParityTest {
    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    private static final TaskState[] STATES = {TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED,
        TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED};

    @TempDir
    Path dir;
    private SqliteTaskStore sqlite;
    private final InMemoryTaskStore memory = new InMemoryTaskStore();
    private final List<Instant> times = new ArrayList<>();

    @BeforeEach
    void feedBoth() {
        sqlite = SqliteTaskStore.open(dir);
        Random random = new Random(10);
        for (int i = 0; i < 240; i++) {
            // Few distinct instants (whole seconds, milliseconds, one nanosecond apart) for many tasks.
            Instant created = T0.plusSeconds(random.nextInt(6)).plusMillis(random.nextInt(3)).plusNanos(random.nextInt(2));
            String id = String.format("%08x-task-%d", random.nextInt(), i);
            TaskHistory h = new TaskHistory(id, "ctx-" + random.nextInt(4), created);
            both(h.created());
            times.add(created);
            int updates = random.nextInt(3);
            for (int u = 0; u < updates; u++) {
                Instant at = created.plusMillis(random.nextInt(1500));
                both(h.status(STATES[random.nextInt(STATES.length)], at, "step " + u));
                times.add(at);
            }
            if (random.nextInt(5) == 0) {
                both(h.artifact("a", "x"));
            }
        }
    }

    private void both(TaskEvent e) {
        boolean durable = e.seq() % 3 == 0;
        memory.append(e, durable);
        sqlite.append(e, durable);
    }

    @AfterEach
    void close() {
        sqlite.close();
    }

    @Test
    void everyPageOfEveryQueryIsTheSame() {
        List<String> contexts = List.of("", "ctx-0", "ctx-3", "no-such-context");
        List<TaskState> states = List.of(TaskState.TASK_STATE_UNSPECIFIED, TaskState.TASK_STATE_SUBMITTED,
                TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_INPUT_REQUIRED);
        List<Instant> after = new ArrayList<>();
        after.add(null);
        after.add(times.get(7));
        after.add(times.get(100).plusNanos(1));
        after.add(T0.plusSeconds(3));
        int pages = 0;
        for (String context : contexts) {
            for (TaskState state : states) {
                for (Instant from : after) {
                    for (int size : new int[] {1, 7, 100}) {
                        pages += compareAllPages(new TaskQuery(context, state, from, size, ""));
                    }
                }
            }
        }
        assertThat(pages).isGreaterThan(1_000);
    }

    @Test
    void theSameTokenMeansTheSamePositionInEitherStore() {
        TaskPage first = memory.list(new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 13, ""));
        TaskQuery next = new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 13, first.nextPageToken());
        assertThat(sqlite.list(next)).isEqualTo(memory.list(next));
    }

    @Test
    void aTokenNeitherStoreIssuedIsRefusedAlike() {
        for (String token : List.of("garbage!", "bm90IGEgdG9rZW4", "MS4yfGlk", "eC55fGlk")) {
            TaskQuery q = new TaskQuery("", TaskState.TASK_STATE_UNSPECIFIED, null, 10, token);
            if (token.equals("MS4yfGlk")) {
                // "1.2|id": well formed, so both page after it (nothing sorts after 1970 here).
                assertThat(sqlite.list(q)).isEqualTo(memory.list(q));
                continue;
            }
            assertThatThrownBy(() -> memory.list(q)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> sqlite.list(q)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("invalid pageToken: it was not issued by this server");
        }
    }

    /** Pages through {@code query} in both stores side by side; returns how many pages there were. */
    private int compareAllPages(TaskQuery query) {
        TaskQuery q = query;
        int pages = 0;
        while (true) {
            TaskPage expected = memory.list(q);
            TaskPage actual = sqlite.list(q);
            pages++;
            assertThat(actual).as("page %d of %s", pages, query).isEqualTo(expected);
            if (expected.nextPageToken().isEmpty()) {
                return pages;
            }
            q = new TaskQuery(q.contextId(), q.status(), q.statusAfter(), q.pageSize(), expected.nextPageToken());
        }
    }
}
