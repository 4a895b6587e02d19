package legate.store.postgres;

import com.google.protobuf.Timestamp;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import legate.a2a.server.task.TaskEvent;
import lf.a2a.v1.Task;

/**
 * The appends of one group commit: the events of many tasks written in one transaction, with one
 * row per task however many of its events the batch holds (only the task after its latest event
 * is stored).
 *
 * <p>Each table gets one statement whatever the batch's size: the rows travel as arrays and
 * {@code unnest} turns them back into rows, so a batch of a thousand events costs the same two
 * round trips as a batch of one.
 *
 * <p>The database checks each task's sequence numbers again, because it alone knows what was
 * committed: a task's rows are written only when its stored {@code last_seq} is the one just
 * before the batch's first event of it (0: the task must not exist yet). A task that fails the
 * check is left out of the transaction, which still commits the others; its writes are reported
 * rejected. That is how an event queued behind one whose commit failed is kept from leaving a
 * gap in the log.
 */
final class Batch {
    // PROTOCOL (A2A §3.1.3): the task stored is the task after its latest event, and the log keeps every event.
    // The notification of each task whose rows went in is sent by PostgreSQL at commit, and only
    // if it commits (EventNotifications listens): other instances learn of the events as soon as
    // they can read them, never before.
    // One statement, so one round trip and its own transaction: the tasks' rows, then the events of
    // the tasks whose rows went in (a data-modifying WITH runs whether or not it is referenced, and
    // the foreign key sees the rows inserted beside it), then the ids of those tasks.
    private static final String WRITE = """
            WITH batch AS (
              SELECT * FROM unnest(?::text[], ?::text[], ?::int4[], ?::int8[], ?::int4[], ?::int8[], ?::int8[], ?::bytea[],
                ?::text[])
                AS b(id, context_id, state, status_seconds, status_nanos, prev_seq, last_seq, task, owner)
            ), accepted AS (
              INSERT INTO tasks AS t (id, context_id, state, status_seconds, status_nanos, last_seq, task, owner)
              SELECT id, context_id, state, status_seconds, status_nanos, last_seq, task, owner FROM batch
              WHERE prev_seq = 0 OR EXISTS (SELECT 1 FROM tasks x WHERE x.id = batch.id)
              ON CONFLICT (id) DO UPDATE SET context_id = EXCLUDED.context_id, state = EXCLUDED.state,
                status_seconds = EXCLUDED.status_seconds, status_nanos = EXCLUDED.status_nanos,
                last_seq = EXCLUDED.last_seq, task = EXCLUDED.task
              WHERE t.last_seq = (SELECT b.prev_seq FROM batch b WHERE b.id = EXCLUDED.id)
              RETURNING t.id
            ), logged AS (
              INSERT INTO events (task_id, seq, event)
              SELECT e.task_id, e.seq, e.event FROM unnest(?::text[], ?::int8[], ?::bytea[]) AS e(task_id, seq, event)
              WHERE e.task_id IN (SELECT id FROM accepted)
            )
            SELECT id, pg_notify('legate_events', id) FROM accepted
            """;

    /** One task's writes in this batch, in sequence order. */
    private static final class TaskWrites {
        final PendingTasks.Entry entry;
        final List<GroupCommit.Write> writes = new ArrayList<>();

        TaskWrites(PendingTasks.Entry entry) {
            this.entry = entry;
        }

        long prevSeq() {
            return writes.get(0).event().seq() - 1;
        }

        TaskEvent last() {
            return writes.get(writes.size() - 1).event();
        }
    }

    // Keyed by entry, not task id: writes of a tombstone never reach a batch (GroupCommit rejects them first).
    private final Map<PendingTasks.Entry, TaskWrites> tasks = new LinkedHashMap<>();

    void add(GroupCommit.Write w) {
        tasks.computeIfAbsent(w.entry(), TaskWrites::new).writes.add(w);
    }

    boolean isEmpty() {
        return tasks.isEmpty();
    }

    /** The writes of every task, grouped by task, in the order they were added. */
    List<List<GroupCommit.Write>> byTask() {
        List<List<GroupCommit.Write>> out = new ArrayList<>(tasks.size());
        for (TaskWrites t : tasks.values()) {
            out.add(t.writes);
        }
        return out;
    }

    /**
     * Writes the batch on {@code c}, in one statement (atomic on its own, or inside the caller's transaction).
     *
     * @return the ids of the tasks whose writes went in; the others failed the sequence check
     */
    Set<String> write(Connection c) throws SQLException {
        int n = tasks.size();
        String[] ids = new String[n];
        String[] contexts = new String[n];
        Integer[] states = new Integer[n];
        Long[] seconds = new Long[n];
        Integer[] nanos = new Integer[n];
        Long[] prevSeqs = new Long[n];
        Long[] lastSeqs = new Long[n];
        byte[][] encoded = new byte[n][];
        String[] owners = new String[n];
        List<String> eventTasks = new ArrayList<>();
        List<Long> eventSeqs = new ArrayList<>();
        List<byte[]> events = new ArrayList<>();
        int i = 0;
        for (TaskWrites t : tasks.values()) {
            TaskEvent last = t.last();
            Task task = last.task();
            Timestamp time = task.getStatus().getTimestamp();
            ids[i] = t.entry.taskId;
            contexts[i] = task.getContextId();
            states[i] = task.getStatus().getStateValue();
            seconds[i] = time.getSeconds();
            nanos[i] = time.getNanos();
            prevSeqs[i] = t.prevSeq();
            lastSeqs[i] = last.seq();
            encoded[i] = task.toByteArray();
            // Written with the task's row when it is inserted; an update leaves the owner as it was.
            owners[i] = last.owner();
            i++;
            for (GroupCommit.Write w : t.writes) {
                eventTasks.add(t.entry.taskId);
                eventSeqs.add(w.event().seq());
                events.add(w.event().event().toByteArray());
            }
        }
        Set<String> accepted = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(WRITE)) {
            ps.setArray(1, c.createArrayOf("text", ids));
            ps.setArray(2, c.createArrayOf("text", contexts));
            ps.setArray(3, c.createArrayOf("int4", states));
            ps.setArray(4, c.createArrayOf("int8", seconds));
            ps.setArray(5, c.createArrayOf("int4", nanos));
            ps.setArray(6, c.createArrayOf("int8", prevSeqs));
            ps.setArray(7, c.createArrayOf("int8", lastSeqs));
            ps.setArray(8, c.createArrayOf("bytea", encoded));
            ps.setArray(9, c.createArrayOf("text", owners));
            ps.setArray(10, c.createArrayOf("text", eventTasks.toArray(new String[0])));
            ps.setArray(11, c.createArrayOf("int8", eventSeqs.toArray(new Long[0])));
            ps.setArray(12, c.createArrayOf("bytea", events.toArray(new byte[0][])));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    accepted.add(rs.getString(1));
                }
            }
        }
        return accepted;
    }
}
