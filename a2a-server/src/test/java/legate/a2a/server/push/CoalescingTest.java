package legate.a2a.server.push;

import static legate.a2a.server.push.PushDeliveryTest.WAIT;
import static legate.a2a.server.push.PushDeliveryTest.kinds;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import legate.a2a.server.task.LoggedEvent;
import legate.testsupport.Cleanup;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskArtifactUpdateEvent;
import lf.a2a.v1.TaskState;
import lf.a2a.v1.TaskStatus;
import lf.a2a.v1.TaskStatusUpdateEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PUSH_QUEUE_MAX (README "Push notifications", the dispatcher): past it, the oldest non-terminal
 * status updates that a later one supersedes are coalesced; never the last status update, a Task
 * or an artifact update.
 */
class CoalescingTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private static LoggedEvent status(long seq, TaskState state) {
        return new LoggedEvent(seq, StreamResponse.newBuilder().setStatusUpdate(TaskStatusUpdateEvent.newBuilder()
                .setTaskId("t").setStatus(TaskStatus.newBuilder().setState(state))).build());
    }

    private static LoggedEvent artifact(long seq) {
        return new LoggedEvent(seq, StreamResponse.newBuilder().setArtifactUpdate(TaskArtifactUpdateEvent.newBuilder()
                .setTaskId("t").setArtifact(Artifact.newBuilder().setArtifactId("a" + seq))).build());
    }

    private static List<Long> seqs(List<LoggedEvent> events) {
        return events.stream().map(LoggedEvent::seq).toList();
    }

    @Test
    void theOldestSupersededStatusUpdatesGoFirstAndNothingElse() {
        List<LoggedEvent> pending = new ArrayList<>();
        pending.add(new LoggedEvent(1, StreamResponse.newBuilder().setTask(Task.newBuilder().setId("t")).build()));
        for (long s = 2; s <= 6; s++) {
            pending.add(status(s, TaskState.TASK_STATE_WORKING));
        }
        pending.add(artifact(7));
        pending.add(status(8, TaskState.TASK_STATE_WORKING));
        pending.add(status(9, TaskState.TASK_STATE_COMPLETED));

        assertThat(WebhookPump.coalesce(pending, 9)).as("at the bound, nothing goes").isEqualTo(pending);
        assertThat(seqs(WebhookPump.coalesce(pending, 6))).containsExactly(1L, 5L, 6L, 7L, 8L, 9L);
        // Every superseded update gone, the bound still not met: what is left is sent in order, at most the bound at a time.
        assertThat(seqs(WebhookPump.coalesce(pending, 2))).containsExactly(1L, 7L);
        assertThat(seqs(WebhookPump.coalesce(pending, 3))).containsExactly(1L, 7L, 9L);
        // The last status update is never coalesced, even when it is not terminal (the task goes on).
        List<LoggedEvent> running = List.of(status(1, TaskState.TASK_STATE_WORKING), status(2, TaskState.TASK_STATE_WORKING),
                status(3, TaskState.TASK_STATE_INPUT_REQUIRED));
        assertThat(seqs(WebhookPump.coalesce(running, 2))).containsExactly(2L, 3L);
    }

    @Test
    void aWebhookThatFallsBehindGetsTheLaterStatesAndEveryArtifactInOrder() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        WebhookReceiver slow = cleanup.register(new WebhookReceiver().holdingUntil(stuck));
        PushAgent agent = new PushAgent(cleanup, PushDeliveryTest.allowing(slow)
                .withPolicy(PushPolicy.DEFAULT.withLimits(8, Duration.ofMinutes(1), 5)));
        // 20 WORKING updates, the artifact and COMPLETED pile up behind the first delivery, held.
        agent.send("steps 20", "{\"url\":\"" + slow.url("/slow") + "\"}", false);
        stuck.countDown();
        List<WebhookReceiver.Delivery> got = new ArrayList<>();
        while (got.isEmpty() || !kinds(got).getLast().equals("COMPLETED done")) {
            WebhookReceiver.Delivery d = slow.next(WAIT);
            assertThat(d).as("a delivery after " + kinds(got)).isNotNull();
            got.add(d);
        }
        List<String> kinds = kinds(got);
        assertThat(kinds.getFirst()).isEqualTo("task");
        assertThat(kinds.subList(kinds.size() - 2, kinds.size())).containsExactly("artifact a1", "COMPLETED done");
        assertThat(kinds).as("some WORKING updates coalesced").hasSizeLessThan(23).contains("WORKING step 20");
        List<Integer> steps = kinds.stream().filter(k -> k.startsWith("WORKING")).map(k -> Integer.parseInt(k.substring(13)))
                .toList();
        assertThat(steps).isSorted().doesNotHaveDuplicates();
        assertThat(slow.next(Duration.ofMillis(300))).isNull();
    }
}
