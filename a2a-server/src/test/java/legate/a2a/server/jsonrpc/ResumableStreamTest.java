package legate.a2a.server.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.EventSink;
import legate.a2a.server.RequestContext;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.card.LegateCards;
import legate.testsupport.Cleanup;
import lf.a2a.v1.Artifact;
import lf.a2a.v1.Part;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Resumable streams on a real socket (README "Tasks that last"): every task frame carries
 * {@code id: <seq>}, and SubscribeToTask with {@code Last-Event-ID} picks a cut stream up where it
 * left off, with no frame lost or repeated, including frames published while the caller was away
 * and a turn that ended meanwhile.
 */
class ResumableStreamTest {
    // A fresh server per test; after each, every stream it opened must be over.
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    private final CountDownLatch firstGate = new CountDownLatch(1);
    private final CountDownLatch secondGate = new CountDownLatch(1);
    private final CountDownLatch step4Published = new CountDownLatch(1);
    private final CountDownLatch completedPublished = new CountDownLatch(1);
    private int port;

    /**
     * "steps": the Task (1), step 1 (2), step 2 (3), then waits for the first gate; step 3 (4), step
     * 4 (5), then waits for the second; the artifact (6), COMPLETED (7). "message": a Message answer.
     */
    final class Steps implements AgentExecutor {
        @Override
        public void execute(RequestContext ctx, EventSink events) throws Exception {
            if (ctx.text().equals("message")) {
                events.message(events.agentText("a message has no task"));
                return;
            }
            events.task(ctx.initialTask());
            events.status(TaskState.TASK_STATE_WORKING, events.agentText("step 1"));
            events.status(TaskState.TASK_STATE_WORKING, events.agentText("step 2"));
            firstGate.await(10, TimeUnit.SECONDS);
            events.status(TaskState.TASK_STATE_WORKING, events.agentText("step 3"));
            events.status(TaskState.TASK_STATE_WORKING, events.agentText("step 4"));
            step4Published.countDown();
            secondGate.await(10, TimeUnit.SECONDS);
            events.artifact(Artifact.newBuilder().setArtifactId("a").addParts(Part.newBuilder().setText("out")).build(),
                    false, true);
            events.status(TaskState.TASK_STATE_COMPLETED, null);
            completedPublished.countDown();
        }
    }

    @BeforeEach
    void start() throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                p -> LegateCards.jsonRpc("steps", "d", "http://127.0.0.1:" + p + "/").build(), new Steps());
        port = cleanup.start("the agent", server, AgentServer::start, AgentServer::openStreams);
    }

    @AfterEach
    void openTheGates() {
        firstGate.countDown();
        secondGate.countDown();
    }

    private static String message(String text) {
        return "{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\""
                + text + "\"}]}}";
    }

    private RawSse stream(String text) throws Exception {
        RawSse s = RawSse.call(port, "SendStreamingMessage", message(text), Map.of());
        assertThat(s.contentType()).isEqualTo("text/event-stream");
        return s;
    }

    private RawSse subscribe(String taskId, String lastEventId) throws Exception {
        return RawSse.call(port, "SubscribeToTask", "{\"id\":\"" + taskId + "\"}",
                lastEventId == null ? Map.of() : Map.of("Last-Event-ID", lastEventId));
    }

    private static String taskId(RawSse.Frame first) {
        return first.result().get("task").get("id").asText();
    }

    private static List<String> lines(List<RawSse.Frame> frames) {
        return frames.stream().map(RawSse.Frame::line).toList();
    }

    private static List<String> said(List<RawSse.Frame> frames) {
        return frames.stream().filter(f -> f.result().has("statusUpdate"))
                .map(f -> f.result().get("statusUpdate").get("status"))
                .filter(s -> s.has("message"))
                .map(s -> s.get("message").get("parts").get(0).get("text").asText()).toList();
    }

    /** Runs a "steps" task to its end and returns its id. */
    private String finishedTask() throws Exception {
        firstGate.countDown();
        secondGate.countDown();
        try (RawSse s = stream("steps")) {
            List<RawSse.Frame> all = s.rest();
            assertThat(all).last().extracting(RawSse.Frame::kind).isEqualTo("status:COMPLETED");
            return taskId(all.get(0));
        }
    }

    @Test
    void everyTaskFrameCarriesItsSequenceNumberAndAMessageAnswerNone() throws Exception {
        firstGate.countDown();
        secondGate.countDown();
        try (RawSse s = stream("steps")) {
            assertThat(lines(s.rest())).containsExactly("1 task:SUBMITTED", "2 status:WORKING", "3 status:WORKING",
                    "4 status:WORKING", "5 status:WORKING", "6 artifact", "7 status:COMPLETED");
        }
        try (RawSse s = stream("message")) {
            // A Message belongs to no task's log: there is nothing to resume.
            assertThat(lines(s.rest())).containsExactly("null message");
        }
    }

    @Test
    void aStreamCutMidTurnResumesWithExactlyTheFramesAfterTheLastIdRead() throws Exception {
        String taskId;
        try (RawSse cut = stream("steps")) {
            List<RawSse.Frame> seen = cut.next(2);
            taskId = taskId(seen.get(0));
            assertThat(seen.get(1).id()).isEqualTo("2");
        }
        // While the caller is away the turn goes on: steps 3 and 4 are published to nobody.
        firstGate.countDown();
        assertThat(step4Published.await(10, TimeUnit.SECONDS)).isTrue();

        try (RawSse resumed = subscribe(taskId, "2")) {
            assertThat(resumed.contentType()).isEqualTo("text/event-stream");
            List<RawSse.Frame> replayed = resumed.next(3);
            secondGate.countDown();
            List<RawSse.Frame> live = resumed.rest();
            assertThat(lines(replayed)).containsExactly("3 status:WORKING", "4 status:WORKING", "5 status:WORKING");
            assertThat(said(replayed)).containsExactly("step 2", "step 3", "step 4");
            assertThat(lines(live)).containsExactly("6 artifact", "7 status:COMPLETED");
            // Each frame is an answer to the call that resumed, not to the one that was cut.
            assertThat(replayed.get(0).data().get("id").asText()).isEqualTo("SubscribeToTask");
        }
    }

    @Test
    void aTurnThatEndedWhileTheCallerWasAwayIsReplayedToItsTerminalFrameAndTheStreamCloses() throws Exception {
        String taskId;
        try (RawSse cut = stream("steps")) {
            taskId = taskId(cut.next(2).get(0));
        }
        firstGate.countDown();
        secondGate.countDown();
        assertThat(completedPublished.await(10, TimeUnit.SECONDS)).isTrue();
        try (RawSse resumed = subscribe(taskId, "2")) {
            assertThat(lines(resumed.rest())).containsExactly("3 status:WORKING", "4 status:WORKING",
                    "5 status:WORKING", "6 artifact", "7 status:COMPLETED");
        }
    }

    @Test
    void aTerminalTaskReplaysWhatIsAfterTheIdInsteadOfRefusing() throws Exception {
        String taskId = finishedTask();
        try (RawSse plain = subscribe(taskId, null)) {
            // PROTOCOL (A2A §3.1.6): without the header, subscribing to a terminal task is unsupported.
            assertThat(plain.contentType()).startsWith("application/json");
            assertThat(plain.json().get("error").get("code").asInt()).isEqualTo(-32004);
        }
        try (RawSse upToDate = subscribe(taskId, "7")) {
            assertThat(upToDate.status()).isEqualTo(200);
            assertThat(upToDate.contentType()).isEqualTo("text/event-stream");
            assertThat(upToDate.rest()).isEmpty();
        }
        try (RawSse everything = subscribe(taskId, "0")) {
            assertThat(lines(everything.rest())).containsExactly("1 task:SUBMITTED", "2 status:WORKING",
                    "3 status:WORKING", "4 status:WORKING", "5 status:WORKING", "6 artifact", "7 status:COMPLETED");
        }
    }

    @Test
    void anIdAboveTheLatestStartsWithTheTaskSnapshot() throws Exception {
        try (RawSse original = stream("steps")) {
            String taskId = taskId(original.next(3).get(0));
            try (RawSse bogus = subscribe(taskId, "42")) {
                // Events lost in a crash, or an id this agent never sent: the snapshot says where the task stands.
                assertThat(bogus.next().line()).isEqualTo("3 task:WORKING");
                firstGate.countDown();
                secondGate.countDown();
                assertThat(lines(bogus.rest())).containsExactly("4 status:WORKING", "5 status:WORKING", "6 artifact",
                        "7 status:COMPLETED");
            }
            assertThat(original.rest()).hasSize(4);
            try (RawSse afterTheEnd = subscribe(taskId, "42")) {
                assertThat(lines(afterTheEnd.rest())).containsExactly("7 task:COMPLETED");
            }
        }
    }

    @Test
    void aMalformedLastEventIdIsInvalidParamsAsAPlainJsonBody() throws Exception {
        try (RawSse original = stream("steps")) {
            String taskId = taskId(original.next(1).get(0));
            for (String bad : List.of("abc", "-1", "1.5")) {
                try (RawSse r = subscribe(taskId, bad)) {
                    assertThat(r.status()).isEqualTo(200);
                    assertThat(r.contentType()).startsWith("application/json");
                    JsonNode error = r.json().get("error");
                    assertThat(error.get("code").asInt()).as(bad).isEqualTo(-32602);
                    assertThat(error.get("message").asText()).contains("Last-Event-ID").contains(bad);
                }
            }
            firstGate.countDown();
            secondGate.countDown();
            assertThat(original.rest()).last().extracting(RawSse.Frame::kind).isEqualTo("status:COMPLETED");
        }
    }

    @Test
    void twoStreamsOfOneTaskCarryTheSameIdForTheSameEvent() throws Exception {
        try (RawSse sender = stream("steps")) {
            List<RawSse.Frame> first = sender.next(3);
            try (RawSse subscriber = subscribe(first.get(0).result().get("task").get("id").asText(), null)) {
                // The snapshot carries the id of the latest event it reflects.
                assertThat(subscriber.next().line()).isEqualTo("3 task:WORKING");
                firstGate.countDown();
                secondGate.countDown();
                List<RawSse.Frame> a = sender.rest();
                List<RawSse.Frame> b = subscriber.rest();
                assertThat(lines(a)).containsExactly("4 status:WORKING", "5 status:WORKING", "6 artifact",
                        "7 status:COMPLETED");
                assertThat(b).hasSameSizeAs(a);
                for (int i = 0; i < a.size(); i++) {
                    assertThat(b.get(i).id()).isEqualTo(a.get(i).id());
                    assertThat(b.get(i).result()).isEqualTo(a.get(i).result());
                }
            }
        }
    }
}
