package legate.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.a2a.server.task.LoggedEvent;
import legate.a2a.server.task.StoredTask;
import legate.store.sqlite.AppendingChild.Step;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.RunningChild;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10's durability contract: anything a caller was told is in the store before it is told,
 * and survives {@code kill -9} of the process at any moment. A child JVM appends turns from four
 * threads and prints each durable acknowledgement; it is killed with SIGKILL mid-stream, and the
 * reopened file must hold every acknowledged event and everything appended before it, and no task
 * whose row and log disagree.
 */
class KillTest {
    private static final Pattern ACK = Pattern.compile("^ack (\\S+) (\\d+)$", Pattern.MULTILINE);

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedEventSurvivesAKill9() throws Exception {
        ChildRun run;
        try (RunningChild child = ChildCommand.java(AppendingChild.class, dir.toString()).start()) {
            // Well into the stream: hundreds of turns acknowledged, more in flight.
            child.awaitLine(Pattern.compile("^ack w\\d-400 6$"), Duration.ofSeconds(60));
            child.process().destroyForcibly();
            run = child.awaitExit(Duration.ofSeconds(30));
        }
        assertThat(run.exitCode()).as("killed by SIGKILL").isEqualTo(137);

        try (SqliteTaskStore store = SqliteTaskStore.open(dir)) {
            Matcher m = ACK.matcher(run.stdout());
            int acks = 0;
            while (m.find()) {
                acks++;
                String taskId = m.group(1);
                int seq = Integer.parseInt(m.group(2));
                List<Step> turn = AppendingChild.turn(taskId);
                StoredTask stored = store.load(taskId).orElseThrow(() -> new AssertionError("lost " + taskId));
                assertThat(stored.lastSeq()).as("%s acknowledged up to %d", taskId, seq).isGreaterThanOrEqualTo(seq);
                assertThat(stored.task()).isEqualTo(turn.get((int) stored.lastSeq() - 1).event().task());
                List<LoggedEvent> log = store.eventsAfter(taskId, 0);
                for (int i = 0; i < log.size(); i++) {
                    assertThat(log.get(i)).isEqualTo(new LoggedEvent(i + 1, turn.get(i).event().event()));
                }
                // Every earlier turn of the same thread was appended before this acknowledgement.
                int n = Integer.parseInt(taskId.substring(3));
                if (n > 0) {
                    String earlier = taskId.substring(0, 3) + (n - 1);
                    assertThat(store.load(earlier).orElseThrow().lastSeq()).as(earlier).isEqualTo(6);
                }
            }
            assertThat(acks).isGreaterThan(1_600);
        }
        // Atomic: no task's row is ahead of or behind its log, acknowledged or not.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("legate.db"));
             Statement s = c.createStatement();
             // A row holds one event, or first_seq to seq (schema version 4).
             ResultSet r = s.executeQuery("SELECT count(*) FROM tasks t WHERE last_seq != "
                     + "(SELECT sum(seq - coalesce(first_seq, seq) + 1) FROM events e WHERE e.task_key = t.key)"
                     + " OR last_seq != (SELECT max(seq) FROM events e WHERE e.task_key = t.key)")) {
            r.next();
            assertThat(r.getInt(1)).isZero();
        }
    }
}
