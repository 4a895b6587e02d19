package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import legate.a2a.model.LegateExtensions;
import legate.testsupport.ScriptedPeer;
import legate.testsupport.StreamRecorder;
import legate.wire.json.WireJson;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Resuming a cut stream, against a peer that writes raw HTTP: its card declares (or not) Legate's
 * resumable streams extension, it cuts SendStreamingMessage after frame 2, and it answers
 * SubscribeToTask with {@code Last-Event-ID: 2} with the rest. What the listener sees, what the peer
 * receives, and how a stream that cannot be resumed still ends as it did before resumption existed.
 */
class ResumableStreamTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Resumption QUICK = new Resumption(3, Duration.ZERO);

    private static final String SUBMITTED = "{\"task\":{\"id\":\"T\",\"contextId\":\"C\",\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}";
    private static final String WORKING = status("TASK_STATE_WORKING");
    private static final String ARTIFACT = "{\"artifactUpdate\":{\"taskId\":\"T\",\"contextId\":\"C\","
            + "\"artifact\":{\"artifactId\":\"a1\",\"parts\":[{\"text\":\"done\"}]}}}";
    private static final String COMPLETED = status("TASK_STATE_COMPLETED");

    /** How the first response ends after its frames. */
    enum Cut { BROKEN, CLOSED }

    private static String status(String state) {
        return "{\"statusUpdate\":{\"taskId\":\"T\",\"contextId\":\"C\",\"status\":{\"state\":\"" + state + "\"}}}";
    }

    /** One SSE frame with its id, holding a JSON-RPC result. */
    private static String frame(int id, String result) {
        return "id: " + id + "\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":" + result + "}\n\n";
    }

    private static boolean isSubscribe(ScriptedPeer.Exchange request) {
        return request.body().contains("\"SubscribeToTask\"");
    }

    /**
     * The first response: the task and WORKING with ids 1 and 2, then the cut, once the listener has
     * both. PEER (JDK HttpClient): a broken connection discards the bytes received but not yet read,
     * so a cut right after a frame could take that frame with it; resuming after the last id received
     * is what repairs that in life, but the test needs to know what the listener saw.
     */
    private static void firstResponse(OutputStream out, Cut cut, Listener listener) throws IOException, InterruptedException {
        ScriptedPeer.sseHead(out);
        ScriptedPeer.chunk(out, frame(1, SUBMITTED));
        ScriptedPeer.chunk(out, frame(2, WORKING));
        listener.awaitDelivered(2);
        if (cut == Cut.CLOSED) {
            ScriptedPeer.lastChunk(out);
        }
        // BROKEN: returning closes the socket without the last chunk
    }

    /** A peer whose card declares {@code extensions}, serving {@code stream} to every POST. */
    private static ScriptedPeer peer(ScriptedPeer.Script stream, String... extensions) throws IOException {
        return new ScriptedPeer((request, out, self) -> {
            if (ScriptedPeer.isCardRequest(request)) {
                ScriptedPeer.respond(out, 200, "application/json", ScriptedPeer.cardJson(self.url(), extensions));
            } else {
                stream.answer(request, out, self);
            }
        });
    }

    private static A2aClient connect(ScriptedPeer peer, Resumption resumption) {
        A2aClient client = A2aClient.connect(peer.url(), ClientConfig.defaults().withResumption(resumption));
        assertThat(peer.takeReceived()).as("the card fetch").hasSize(1);
        return client;
    }

    // PROTOCOL (the resumable streams extension, README "legate client"): a stream cut after frame 2,
    // broken or closed cleanly, is picked up with SubscribeToTask and Last-Event-ID: 2, and the
    // listener sees every event once, in order, as one stream.
    @ParameterizedTest
    @ValueSource(strings = {"BROKEN", "CLOSED"})
    void aCutStreamResumesAfterTheLastEventAndTheListenerSeesEveryEventOnce(Cut cut) throws Exception {
        Listener listener = new Listener();
        try (ScriptedPeer peer = peer((request, out, self) -> {
            if (!isSubscribe(request)) {
                firstResponse(out, cut, listener);
                return;
            }
            ScriptedPeer.sseHead(out);
            ScriptedPeer.chunk(out, frame(3, ARTIFACT));
            ScriptedPeer.chunk(out, frame(4, COMPLETED));
            ScriptedPeer.lastChunk(out);
        }, LegateExtensions.RESUMABLE_STREAMS); A2aClient client = connect(peer, QUICK)) {

            StreamEnd end = client.stream(UserMessage.text("hi"), listener);

            assertThat(end).isEqualTo(new StreamEnd(StreamEnd.How.TURN_ENDED, 4, TaskState.TASK_STATE_COMPLETED));
            assertThat(listener.events.kinds()).containsExactly("task:SUBMITTED", "status:WORKING", "artifact:a1", "status:COMPLETED");
            assertThat(listener.ids).containsExactly("1", "2", "3", "4");
            assertThat(listener.attempts).singleElement().satisfies(a -> {
                assertThat(a.taskId()).isEqualTo("T");
                assertThat(a.lastEventId()).isEqualTo("2");
                assertThat(a.attempt()).isEqualTo(1);
                assertThat(a.attempts()).isEqualTo(3);
            });
            List<ScriptedPeer.Exchange> requests = peer.takeReceived();
            assertThat(requests).hasSize(2);
            ScriptedPeer.Exchange resubscribe = requests.get(1);
            assertThat(resubscribe.header("Last-Event-ID")).isEqualTo("2");
            JsonNode body = WireJson.mapper().readTree(resubscribe.body());
            assertThat(body.path("method").asText()).isEqualTo("SubscribeToTask");
            assertThat(body.path("params").path("id").asText()).isEqualTo("T");
            assertThat(requests.get(0).header("Last-Event-ID")).as("the first call starts afresh").isNull();
        }
    }

    // No duplicates even from an agent that replays from the id itself rather than after it; and a
    // Task snapshot is never a repeat: an agent that cannot replay from the id (its log lost events
    // in a crash) opens with the snapshot, whose id is lower, and what follows it is new.
    @Test
    void repeatedEventsAreSkippedButASnapshotWithALowerIdIsDelivered() throws Exception {
        String snapshot = "{\"task\":{\"id\":\"T\",\"contextId\":\"C\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}";
        Listener listener = new Listener();
        try (ScriptedPeer peer = peer((request, out, self) -> {
            if (!isSubscribe(request)) {
                firstResponse(out, Cut.BROKEN, listener);
                return;
            }
            ScriptedPeer.sseHead(out);
            ScriptedPeer.chunk(out, frame(2, WORKING));
            ScriptedPeer.chunk(out, frame(1, snapshot));
            ScriptedPeer.chunk(out, frame(2, COMPLETED));
            ScriptedPeer.lastChunk(out);
        }, LegateExtensions.RESUMABLE_STREAMS); A2aClient client = connect(peer, QUICK)) {

            StreamEnd end = client.stream(UserMessage.text("hi"), listener);

            assertThat(listener.events.kinds()).containsExactly("task:SUBMITTED", "status:WORKING", "task:WORKING", "status:COMPLETED");
            assertThat(listener.ids).containsExactly("1", "2", "1", "2");
            assertThat(end.how()).isEqualTo(StreamEnd.How.TURN_ENDED);
        }
    }

    // An agent without the extension makes no promise about Last-Event-ID: the cut ends the call as
    // it always did, and nothing else is sent.
    @Test
    void withoutTheExtensionACutStreamEndsAsBeforeAndNothingIsResubscribed() throws Exception {
        Listener listener = new Listener();
        try (ScriptedPeer peer = peer((request, out, self) -> firstResponse(out, Cut.BROKEN, listener));
             A2aClient client = connect(peer, QUICK)) {

            assertThat(client.resumesStreams()).isFalse();
            assertThatThrownBy(() -> client.stream(UserMessage.text("hi"), listener))
                    .isInstanceOfSatisfying(TransportException.class, e -> {
                        assertThat(e.kind()).isEqualTo(TransportException.Kind.CUT);
                        assertThat(e.getMessage()).doesNotContain("resuming");
                    });
            assertThat(listener.events.kinds()).containsExactly("task:SUBMITTED", "status:WORKING");
            assertThat(listener.attempts).isEmpty();
            assertThat(peer.takeReceived()).hasSize(1);
        }
    }

    // Resumption is a ClientConfig option: turned off, the extension changes nothing.
    @Test
    void resumptionTurnedOffEndsAStreamClosedEarlyAsBefore() throws Exception {
        Listener listener = new Listener();
        try (ScriptedPeer peer = peer((request, out, self) -> firstResponse(out, Cut.CLOSED, listener), LegateExtensions.RESUMABLE_STREAMS);
             A2aClient client = connect(peer, Resumption.OFF)) {

            StreamEnd end = client.stream(UserMessage.text("hi"), listener);

            assertThat(end).isEqualTo(new StreamEnd(StreamEnd.How.CLOSED_EARLY, 2, TaskState.TASK_STATE_WORKING));
            assertThat(listener.attempts).isEmpty();
            assertThat(peer.takeReceived()).hasSize(1);
        }
    }

    // Bounded attempts: a resubscription that is cut every time is tried 3 times, each reported,
    // and then the stream ends as the cut would have ended it, saying what the attempts met.
    @Test
    void aResumeThatKeepsFailingEndsAsTheCutAfterTheBoundedAttempts() throws Exception {
        Listener listener = new Listener();
        try (ScriptedPeer peer = peer((request, out, self) -> {
            if (!isSubscribe(request)) {
                firstResponse(out, Cut.BROKEN, listener);
                return;
            }
            ScriptedPeer.sseHead(out);
        }, LegateExtensions.RESUMABLE_STREAMS); A2aClient client = connect(peer, QUICK)) {

            assertThatThrownBy(() -> client.stream(UserMessage.text("hi"), listener))
                    .isInstanceOfSatisfying(TransportException.class, e -> {
                        assertThat(e.kind()).isEqualTo(TransportException.Kind.CUT);
                        assertThat(e.getMessage()).contains("resuming after event 2 failed 3 time(s)");
                    });
            assertThat(listener.attempts).extracting(ResumeAttempt::attempt).containsExactly(1, 2, 3);
            assertThat(listener.events.kinds()).containsExactly("task:SUBMITTED", "status:WORKING");
            assertThat(peer.takeReceived()).filteredOn(ResumableStreamTest::isSubscribe).hasSize(3)
                    .allSatisfy(r -> assertThat(r.header("Last-Event-ID")).isEqualTo("2"));
        }
    }

    // An agent that refuses the resubscription (the task is gone after a restart without a store)
    // will not change its mind: one attempt, then the stream closed early stays closed early.
    @Test
    void aRefusedResubscriptionEndsTheAttemptsAtOnce() throws Exception {
        Listener listener = new Listener();
        try (ScriptedPeer peer = peer((request, out, self) -> {
            if (!isSubscribe(request)) {
                firstResponse(out, Cut.CLOSED, listener);
                return;
            }
            ScriptedPeer.respond(out, 200, "application/json",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32001,\"message\":\"Task not found: T\"}}");
        }, LegateExtensions.RESUMABLE_STREAMS); A2aClient client = connect(peer, QUICK)) {

            StreamEnd end = client.stream(UserMessage.text("hi"), listener);

            assertThat(end).isEqualTo(new StreamEnd(StreamEnd.How.CLOSED_EARLY, 2, TaskState.TASK_STATE_WORKING));
            assertThat(listener.attempts).hasSize(1);
        }
    }

    // PEER (legate tap, proxies): while the agent restarts, a gateway in front of it answers -32603
    // or an error page; that is worth the next attempt, unlike an A2A error.
    @Test
    void aGatewayErrorWhileTheAgentRestartsIsTriedAgain() throws Exception {
        AtomicInteger subscriptions = new AtomicInteger();
        Listener listener = new Listener();
        try (ScriptedPeer peer = peer((request, out, self) -> {
            if (!isSubscribe(request)) {
                firstResponse(out, Cut.BROKEN, listener);
                return;
            }
            switch (subscriptions.incrementAndGet()) {
                case 1 -> ScriptedPeer.respond(out, 502, "application/json", "{\"jsonrpc\":\"2.0\",\"id\":1,"
                        + "\"error\":{\"code\":-32603,\"message\":\"legate tap: the agent is not reachable\"}}");
                case 2 -> ScriptedPeer.respond(out, 502, "text/html", "<html><h1>Bad Gateway</h1></html>");
                default -> {
                    ScriptedPeer.sseHead(out);
                    ScriptedPeer.chunk(out, frame(3, ARTIFACT));
                    ScriptedPeer.chunk(out, frame(4, COMPLETED));
                    ScriptedPeer.lastChunk(out);
                }
            }
        }, LegateExtensions.RESUMABLE_STREAMS); A2aClient client = connect(peer, QUICK)) {

            StreamEnd end = client.stream(UserMessage.text("hi"), listener);

            assertThat(end).isEqualTo(new StreamEnd(StreamEnd.How.TURN_ENDED, 4, TaskState.TASK_STATE_COMPLETED));
            assertThat(listener.attempts).extracting(ResumeAttempt::attempt).containsExactly(1, 2, 3);
            assertThat(listener.attempts.get(1).why()).contains("-32603");
            assertThat(listener.attempts.get(2).why()).contains("Bad Gateway");
        }
    }

    // The bound is on attempts in a row: a resubscription that delivers events and is cut again
    // starts the count afresh, so a long task behind a flaky proxy is followed to its end.
    @Test
    void anAttemptThatDeliversEventsStartsTheCountAgain() throws Exception {
        Listener listener = new Listener();
        try (ScriptedPeer peer = peer((request, out, self) -> {
            if (!isSubscribe(request)) {
                firstResponse(out, Cut.BROKEN, listener);
                return;
            }
            ScriptedPeer.sseHead(out);
            if (request.header("Last-Event-ID").equals("2")) {
                ScriptedPeer.chunk(out, frame(3, ARTIFACT));
                listener.awaitDelivered(3);
                return;
            }
            ScriptedPeer.chunk(out, frame(4, COMPLETED));
            ScriptedPeer.lastChunk(out);
        }, LegateExtensions.RESUMABLE_STREAMS); A2aClient client = connect(peer, new Resumption(1, Duration.ZERO))) {

            StreamEnd end = client.stream(UserMessage.text("hi"), listener);

            assertThat(end.lastState()).isEqualTo(TaskState.TASK_STATE_COMPLETED);
            assertThat(listener.ids).containsExactly("1", "2", "3", "4");
            assertThat(listener.attempts).extracting(ResumeAttempt::lastEventId).containsExactly("2", "3");
        }
    }

    // subscribe(taskId, lastEventId, listener) asks for the events after an id the caller kept;
    // plain subscribe sends no Last-Event-ID.
    @Test
    void subscribeAfterAnEventSendsItsIdAsLastEventId() throws Exception {
        try (ScriptedPeer peer = peer((request, out, self) -> {
            ScriptedPeer.sseHead(out);
            ScriptedPeer.chunk(out, frame(8, COMPLETED));
            ScriptedPeer.lastChunk(out);
        }, LegateExtensions.RESUMABLE_STREAMS); A2aClient client = connect(peer, QUICK)) {
            Listener after = new Listener();
            StreamEnd end = client.subscribe("T", "7", after);
            client.subscribe("T", new Listener());

            assertThat(end.how()).isEqualTo(StreamEnd.How.TURN_ENDED);
            assertThat(after.ids).containsExactly("8");
            assertThat(peer.takeReceived()).extracting(r -> r.header("Last-Event-ID")).containsExactly("7", null);
        }
    }

    /** Records the events, their ids and the resume attempts, as a caller that keeps ids would. */
    private static final class Listener implements StreamListener {
        final StreamRecorder events = new StreamRecorder(WAIT);
        final List<String> ids = new CopyOnWriteArrayList<>();
        final List<ResumeAttempt> attempts = new CopyOnWriteArrayList<>();
        private final Semaphore delivered = new Semaphore(0);

        /** Waits until the listener has received {@code n} events in all. */
        void awaitDelivered(int n) throws InterruptedException {
            if (!delivered.tryAcquire(n, WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the listener did not receive " + n + " events within " + WAIT);
            }
            delivered.release(n);
        }

        @Override
        public boolean onEvent(StreamResponse event) {
            throw new AssertionError("the client hands every event over with its id");
        }

        @Override
        public boolean onEvent(StreamResponse event, String eventId) {
            ids.add(eventId);
            events.onEvent(event);
            delivered.release();
            return true;
        }

        @Override
        public boolean onResume(ResumeAttempt attempt) {
            attempts.add(attempt);
            return true;
        }
    }
}
