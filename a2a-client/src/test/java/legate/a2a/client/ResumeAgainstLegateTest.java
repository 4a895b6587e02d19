package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import legate.testsupport.StreamRecorder;
import lf.a2a.v1.StreamResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The client and Legate's own server end to end: a stream cut in the middle of a turn (by a relay
 * in front of the agent, as a proxy would) is resumed with Last-Event-ID and the caller sees every
 * event of the turn exactly once, in order, as if nothing had happened (the resumable-streams
 * extension, README "Tasks that last").
 */
class ResumeAgainstLegateTest {
    // Steps of 300 ms: the cut after the second frame lands while the turn still works.
    private static final Duration STEP = Duration.ofMillis(300);

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    // On every binding that streams over SSE: the REST binding's frames carry the same ids.
    @ParameterizedTest
    @ValueSource(strings = {"JSONRPC", "REST"})
    void aStreamCutMidTurnIsResumedAndNoEventIsLostOrRepeated(String binding) throws Exception {
        CuttingRelay relay = cleanup.register(CuttingRelay.sse(2));
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + relay.port() + "/"), new RevisorExecutor(STEP));
        relay.forwardTo(cleanup.start("Revisor", server, AgentServer::start, AgentServer::openStreams));
        A2aClient client = cleanup.register(A2aClient.connect(URI.create("http://127.0.0.1:" + relay.port()),
                ClientConfig.defaults().withBindings(List.of(Binding.named(binding)))));

        resumedWholeAfterOneCut(client, relay);
    }

    // gRPC messages carry no id: the agent names the first message's id in the stream's response
    // headers (legate-first-event-id), each message after it being the next event, so the client
    // knows the id of what it read and resubscribes with last-event-id metadata.
    @Test
    void aGrpcStreamCutMidTurnIsResumedAndNoEventIsLostOrRepeated() throws Exception {
        CuttingRelay relay = cleanup.register(CuttingRelay.grpc(2));
        // The card sends gRPC callers to the relay; the card itself is read from the agent.
        AgentServer server = AgentServer.create(ServerConfig.loopback(0).withGrpcPublicAddress("127.0.0.1:" + relay.port()),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"), new RevisorExecutor(STEP));
        int port = cleanup.start("Revisor", server, AgentServer::start, AgentServer::openStreams);
        relay.forwardTo(server.grpcPort());
        A2aClient client = cleanup.register(A2aClient.connect(URI.create("http://127.0.0.1:" + port),
                ClientConfig.defaults().withBindings(List.of(Binding.named("GRPC")))));

        resumedWholeAfterOneCut(client, relay);
    }

    private static void resumedWholeAfterOneCut(A2aClient client, CuttingRelay relay) {
        StreamRecorder events = new StreamRecorder();
        List<String> ids = new CopyOnWriteArrayList<>();
        List<ResumeAttempt> attempts = new CopyOnWriteArrayList<>();

        StreamEnd end = client.stream(UserMessage.text("Count these words. Then stop."), new StreamListener() {
            @Override
            public boolean onEvent(StreamResponse event) {
                return events.onEvent(event);
            }

            @Override
            public boolean onEvent(StreamResponse event, String eventId) {
                ids.add(eventId);
                return events.onEvent(event);
            }

            @Override
            public boolean onResume(ResumeAttempt attempt) {
                attempts.add(attempt);
                return true;
            }
        });

        assertThat(relay.cut()).as("the relay cut the first stream").isTrue();
        assertThat(attempts).as("one resubscription after the cut").hasSize(1);
        assertThat(end.closedEarly()).isFalse();
        assertThat(events.kinds()).containsExactly("task:SUBMITTED", "status:WORKING", "status:WORKING",
                "artifact:" + RevisorExecutor.ARTIFACT_ID, "status:COMPLETED");
        assertThat(ids).containsExactly("1", "2", "3", "4", "5");
    }
}
