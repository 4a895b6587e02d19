package legate.a2a.server.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.task.SharedLeases;
import legate.a2a.server.task.ForwardingTaskStore;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.TaskEvent;
import legate.a2a.server.task.TaskStore;
import legate.testsupport.Cleanup;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two instances on one store (README "Several instances"), in process, on real loopback sockets:
 * a SubscribeToTask on B of a task parked on A follows the turn its reply starts on A, whether the
 * reply reaches B (which forwards it to A) or A itself, and ends with the terminal event. PROTOCOL
 * (A2A §3.1.6): the stream terminates when the task reaches a terminal state. The store is shared
 * memory and its commits are announced to the other instance's watchers as PostgreSQL's NOTIFY
 * announces them: "task X has more", on a thread of its own, after the append returned.
 */
class FollowingAcrossInstancesTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private final SharedLeases leases = new SharedLeases();
    private final ExecutorService announcements = Executors.newVirtualThreadPerTaskExecutor();
    private final TaskStore shared = new Announcing(new InMemoryTaskStore());
    /** The instance each turn ran on, in order. */
    private final List<String> ranOn = new CopyOnWriteArrayList<>();

    /** The shared store, announcing each append to every instance's watchers of the task. */
    private final class Announcing extends ForwardingTaskStore {
        Announcing(TaskStore store) {
            super(store);
        }

        @Override
        public void append(TaskEvent event, boolean durable) {
            store.append(event, durable);
            for (Runnable w : leases.watchers(event.taskId())) {
                announcements.execute(w);
            }
        }
    }

    /** Without text: INPUT_REQUIRED (events 1-2); a reply: the Task, WORKING, COMPLETED (3-5). */
    private int instance(String name) throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                port -> LegateCards.jsonRpc("twin", "one of two", "http://127.0.0.1:" + port + "/").build(),
                (ctx, events) -> {
                    ranOn.add(name);
                    events.task(ctx.initialTask());
                    if (ctx.text().isEmpty()) {
                        events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText("text please"));
                        return;
                    }
                    events.status(TaskState.TASK_STATE_WORKING, events.agentText("counting"));
                    events.status(TaskState.TASK_STATE_COMPLETED, events.agentText("done"));
                }, shared, Clock.systemUTC(), leases.instance());
        return cleanup.start("instance", server, AgentServer::start, AgentServer::openStreams);
    }

    private static String message(String text, String taskId) {
        return "{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\""
                + (taskId == null ? "" : ",\"taskId\":\"" + taskId + "\"")
                + ",\"parts\":[" + (text.isEmpty() ? "" : "{\"text\":\"" + text + "\"}") + "]}}";
    }

    private static String parkedTaskOn(int port) throws Exception {
        try (RawSse asked = RawSse.call(port, "SendMessage", message("", null), Map.of())) {
            var task = asked.json().get("result").get("task");
            assertThat(task.get("status").get("state").asText()).isEqualTo("TASK_STATE_INPUT_REQUIRED");
            return task.get("id").asText();
        }
    }

    private static String reply(int port, String taskId) throws Exception {
        try (RawSse answered = RawSse.call(port, "SendMessage", message("the text", taskId), Map.of())) {
            return answered.json().get("result").get("task").get("status").get("state").asText();
        }
    }

    @Test
    void aSubscriberOnBFollowsTheTurnItsReplyStartsOnAWhereverTheReplyArrivesAndEndsAtCompleted() throws Exception {
        int a = instance("A");
        int b = instance("B");
        for (int replyTo : new int[] {b, a}) {
            String task = parkedTaskOn(a);
            try (RawSse followed = RawSse.call(b, "SubscribeToTask", "{\"id\":\"" + task + "\"}", Map.of())) {
                assertThat(followed.contentType()).isEqualTo("text/event-stream");
                assertThat(followed.next().line()).isEqualTo("2 task:INPUT_REQUIRED");

                // Sent to B, the reply is forwarded to A, where the conversation lives; sent to A, it runs there.
                assertThat(reply(replyTo, task)).as("the reply's answer").isEqualTo("TASK_STATE_COMPLETED");

                assertThat(followed.rest()).extracting(RawSse.Frame::line)
                        .as("reply sent to %s", replyTo == b ? "B" : "A")
                        .containsExactly("3 task:INPUT_REQUIRED", "4 status:WORKING", "5 status:COMPLETED");
            }
            // DEFECT (test): looked once, right after the stream's end was read, it failed when B
            // released its watch a moment later.
            assertThat(leases.awaitNoWatchers(task, Duration.ofSeconds(10))).as("B gave its watch up").isTrue();
        }
        assertThat(ranOn).as("every turn ran where the conversations live").containsOnly("A").hasSize(4);
    }
}
