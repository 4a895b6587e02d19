package legate.a2a.server.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.card.LegateCards;
import legate.testsupport.Cleanup;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A SubscribeToTask of a parked task on a real socket waits for the reply's turn (A2A §3.1.6)
 * without costing the server more than its connection: a client that hangs up is noticed by the
 * next keep-alive comment and its subscription dropped, and a server that stops (drains, as a
 * SIGTERM asks) ends the stream cleanly, the last chunk written, so the client reads an end.
 */
class ParkedSubscriptionTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    private AgentServer server;
    private int port;

    @BeforeEach
    void start() throws Exception {
        // A keep-alive comment after 200 ms of silence: a client gone is noticed within a second.
        server = AgentServer.create(new ServerConfig("127.0.0.1", 0, "/", 1 << 16, Duration.ofSeconds(2),
                        Duration.ofMillis(200)),
                p -> LegateCards.jsonRpc("asks", "d", "http://127.0.0.1:" + p + "/").build(),
                (ctx, events) -> {
                    events.task(ctx.initialTask());
                    events.status(TaskState.TASK_STATE_INPUT_REQUIRED, events.agentText("text please"));
                });
        port = cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
    }

    private String parkedTask() throws Exception {
        String m = "{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\",\"parts\":[]}}";
        try (RawSse asked = RawSse.call(port, "SendMessage", m, Map.of())) {
            return asked.json().get("result").get("task").get("id").asText();
        }
    }

    private RawSse subscribe(String taskId) throws Exception {
        RawSse s = RawSse.call(port, "SubscribeToTask", "{\"id\":\"" + taskId + "\"}", Map.of());
        assertThat(s.next().line()).isEqualTo("2 task:INPUT_REQUIRED");
        return s;
    }

    private static void await(String what, IntSupplier count, int expected) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (count.getAsInt() != expected && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        assertThat(count.getAsInt()).as(what).isEqualTo(expected);
    }

    @Test
    void aClientThatHangsUpOnAParkedTasksStreamIsDroppedAndLeavesNothingHeld() throws Exception {
        String task = parkedTask();
        RawSse staying = subscribe(task);
        RawSse leaving = subscribe(task);
        await("two streams following the parked task", () -> server.handler().tasksHeld(), 2);

        leaving.close();

        await("the stream of the client that hung up", () -> server.handler().tasksHeld(), 1);
        await("open streams", server::openStreams, 1);
        staying.close();
        await("nothing held once both hung up", () -> server.handler().tasksHeld(), 0);
    }

    @Test
    void aStoppingServerEndsAParkedTasksStreamCleanly() throws Exception {
        RawSse followed = subscribe(parkedTask());

        assertThat(server.drain(Duration.ofSeconds(1))).as("no turn was running").isTrue();

        assertThat(followed.next()).as("an end of stream, not a reset").isNull();
        followed.close();
    }
}
