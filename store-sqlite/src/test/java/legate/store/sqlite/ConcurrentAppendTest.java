package legate.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredTask;
import legate.store.sqlite.AppendingChild.Step;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract under load: appends of many tasks at once (virtual threads, as the server's turns
 * are), while readers read the same tasks. Every read shows a prefix of the task's log, in order,
 * with no gap and no repeat, whether its events are pending, being committed or committed; at the
 * end every log is whole, also after a reopen.
 */
class ConcurrentAppendTest {
    private static final int WRITERS = 48;
    private static final int TURNS = 30;

    @TempDir
    Path dir;

    @Test
    void eachTasksLogStaysInOrderWhileManyAreAppendedAndRead() throws Exception {
        List<String> problems = new CopyOnWriteArrayList<>();
        ConcurrentLinkedQueue<String> started = new ConcurrentLinkedQueue<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        try (SqliteTaskStore store = SqliteTaskStore.open(dir);
             ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor();
             // Platform threads: a reader that never parks would hold a carrier and starve the writers.
             ExecutorService readerThreads = Executors.newFixedThreadPool(2)) {
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                String worker = "w" + w;
                writers.add(threads.submit(() -> {
                    for (int i = 0; i < TURNS; i++) {
                        String id = worker + "-" + i;
                        started.add(id);
                        for (Step s : AppendingChild.turn(id)) {
                            store.append(s.event(), s.durable());
                        }
                    }
                    return null;
                }));
            }
            List<Future<?>> readers = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                readers.add(readerThreads.submit(() -> {
                    int reads = 0;
                    while (writing.get() || reads == 0) {
                        List<String> ids = List.copyOf(started);
                        if (!ids.isEmpty()) {
                            check(store, ids.get(ThreadLocalRandom.current().nextInt(ids.size())), problems);
                            reads++;
                        }
                    }
                    return reads;
                }));
            }
            for (Future<?> f : writers) {
                f.get(120, TimeUnit.SECONDS);
            }
            writing.set(false);
            for (Future<?> f : readers) {
                assertThat((Integer) f.get(60, TimeUnit.SECONDS)).isPositive();
            }
            assertThat(problems).isEmpty();
            assertWhole(store);
        }
        try (SqliteTaskStore again = SqliteTaskStore.open(dir)) {
            assertWhole(again);
        }
    }

    /** One read of a task while it may be appended to: the task and its log agree with the turn. */
    private static void check(SqliteTaskStore store, String id, List<String> problems) {
        List<Step> turn = AppendingChild.turn(id);
        StoredTask stored = store.load(id).orElse(null);
        long seen = stored == null ? 0 : stored.lastSeq();
        if (stored != null && !stored.task().equals(turn.get((int) seen - 1).event().task())) {
            problems.add(id + ": the task does not match its event " + seen);
        }
        List<LoggedEvent> log = store.eventsAfter(id, 0);
        if (log.size() < seen) {
            problems.add(id + ": the log has " + log.size() + " events after the task showed " + seen);
        }
        for (int i = 0; i < log.size(); i++) {
            if (!log.get(i).equals(new LoggedEvent(i + 1, turn.get(i).event().event()))) {
                problems.add(id + ": event " + (i + 1) + " of the log is " + log.get(i).seq());
                return;
            }
        }
        long from = ThreadLocalRandom.current().nextLong(0, 7);
        List<LoggedEvent> tail = store.eventsAfter(id, from);
        for (int i = 0; i < tail.size(); i++) {
            if (tail.get(i).seq() != from + 1 + i) {
                problems.add(id + ": after " + from + " the log reads " + tail);
                return;
            }
        }
    }

    private static void assertWhole(SqliteTaskStore store) {
        for (int w = 0; w < WRITERS; w++) {
            for (int i = 0; i < TURNS; i++) {
                String id = "w" + w + "-" + i;
                List<Step> turn = AppendingChild.turn(id);
                assertThat(store.load(id)).contains(new StoredTask(turn.get(5).event().task(), 6));
                assertThat(store.eventsAfter(id, 0)).extracting(LoggedEvent::event)
                        .containsExactlyElementsOf(turn.stream().map(s -> s.event().event()).toList());
            }
        }
    }
}
