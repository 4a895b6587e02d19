package legate.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import legate.a2a.model.A2aError;
import legate.testsupport.ScriptedPeer;
import legate.testsupport.StreamRecorder;
import legate.wire.json.WireJson;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.TaskState;
import org.junit.jupiter.api.Test;

/**
 * The JSON-RPC binding as the client sees it on the wire, against a peer that writes raw HTTP:
 * what every request carries, how errors are read whatever the HTTP status, and how a stream cut
 * in the middle, a stream closed early and an error event differ.
 */
class JsonRpcTransportTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String TASK_FRAME = "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"T\","
            + "\"contextId\":\"C\",\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}}\n\n";
    private static final String WORKING_FRAME = "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"statusUpdate\":{"
            + "\"taskId\":\"T\",\"contextId\":\"C\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}}\n\n";

    /** A client for a card whose only interface is the peer's URL. */
    private static A2aClient clientFor(ScriptedPeer peer, String tenant, ClientConfig config) {
        AgentCard card = AgentCard.newBuilder().setName("Scripted")
                .addSupportedInterfaces(AgentInterface.newBuilder().setUrl(peer.url().toString())
                        .setProtocolBinding("JSONRPC").setProtocolVersion("1.0").setTenant(tenant))
                .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true)).build();
        return A2aClient.forCard(card, config);
    }

    private static A2aClient clientFor(ScriptedPeer peer) {
        return clientFor(peer, "", ClientConfig.defaults());
    }

    private static void jsonRpc(OutputStream out, int status, String body) throws java.io.IOException {
        ScriptedPeer.respond(out, status, "application/json", body);
    }

    // PROTOCOL (A2A §3.6, §9.1): A2A-Version: 1.0 and Content-Type: application/json on every request;
    // PROTOCOL (A2A §8.3.2): the interface's tenant is copied into the request.
    @Test
    void everyRequestCarriesTheVersionTheJsonContentTypeAndTheInterfaceTenant() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> jsonRpc(out, 200,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"id\":\"T\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}"));
             A2aClient client = clientFor(peer, "team-7", ClientConfig.defaults())) {

            assertThat(client.getTask("T").getStatus().getState()).isEqualTo(TaskState.TASK_STATE_WORKING);

            ScriptedPeer.Exchange call = peer.nextRequest(WAIT);
            assertThat(call.method()).isEqualTo("POST");
            assertThat(call.header("A2A-Version")).isEqualTo("1.0");
            assertThat(call.header("Content-Type")).isEqualTo("application/json");
            JsonNode body = WireJson.mapper().readTree(call.body());
            assertThat(body.path("jsonrpc").asText()).isEqualTo("2.0");
            assertThat(body.path("method").asText()).isEqualTo("GetTask");
            assertThat(body.path("params").path("id").asText()).isEqualTo("T");
            assertThat(body.path("params").path("tenant").asText()).isEqualTo("team-7");
        }
    }

    // PEER (@a2a-js/sdk 1.2.0): a version refused before dispatch answers HTTP 500 with a JSON-RPC
    // error body; the body decides, not the status.
    @Test
    void anErrorBodyIsReadWhateverTheHttpStatus() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> jsonRpc(out, 500,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32009,\"message\":\"version 0.3 not supported\","
                        + "\"data\":[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"VERSION_NOT_SUPPORTED\","
                        + "\"domain\":\"a2a-protocol.org\",\"metadata\":{\"supported\":\"1.0\"}}]}}"));
             A2aClient client = clientFor(peer)) {

            assertThatThrownBy(() -> client.getTask("T"))
                    .isInstanceOfSatisfying(AgentErrorException.class, e -> {
                        assertThat(e.code()).isEqualTo(-32009);
                        assertThat(e.error()).contains(A2aError.VERSION_NOT_SUPPORTED);
                        assertThat(e.reason()).isEqualTo("VERSION_NOT_SUPPORTED");
                        assertThat(e.errorInfo().orElseThrow().metadata()).containsEntry("supported", "1.0");
                    });
        }
    }

    // An error code outside the tables (a newer peer, an extension) is kept and shown, not lost.
    @Test
    void anUnknownErrorCodeIsKeptAndShown() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> jsonRpc(out, 200,
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32077,\"message\":\"quota exceeded\","
                        + "\"data\":[{\"@type\":\"type.googleapis.com/google.rpc.ErrorInfo\",\"reason\":\"QUOTA_EXCEEDED\",\"domain\":\"example.com\"}]}}"));
             A2aClient client = clientFor(peer)) {

            assertThatThrownBy(() -> client.getTask("T"))
                    .isInstanceOfSatisfying(AgentErrorException.class, e -> {
                        assertThat(e.code()).isEqualTo(-32077);
                        assertThat(e.error()).isEmpty();
                        assertThat(e.reason()).isEqualTo("QUOTA_EXCEEDED");
                        assertThat(e.getMessage()).isEqualTo("QUOTA_EXCEEDED (-32077): quota exceeded");
                    });
        }
    }

    // Something that is not an A2A agent (a proxy's error page) is neither a protocol error nor a transport one.
    @Test
    void anAnswerThatIsNotJsonRpcIsAnInvalidResponse() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) ->
                ScriptedPeer.respond(out, 502, "text/html", "<html><h1>Bad Gateway</h1></html>"));
             A2aClient client = clientFor(peer)) {

            assertThatThrownBy(() -> client.getTask("T"))
                    .isInstanceOf(InvalidResponseException.class)
                    .hasMessageContaining("HTTP 502")
                    .hasMessageContaining("Bad Gateway");
        }
    }

    // PROTOCOL (A2A §5.7): a result is read leniently (unknown members, snake_case names, nulls), but a
    // member of the wrong shape makes it an invalid response that names the member, read from the
    // tree the envelope was parsed into, not printed back to text for JsonFormat.
    @Test
    void aResultIsReadLenientlyAndAWrongShapeIsAnInvalidResponseNamingTheMember() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> jsonRpc(out, 200,
                !request.body().contains("\"BAD\"")
                        ? "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"id\":\"T\",\"context_id\":\"C\",\"kind\":\"task\","
                                + "\"history\":null,\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}"
                        : "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"id\":\"T\",\"status\":\"working\"}}"));
             A2aClient client = clientFor(peer)) {

            assertThat(client.getTask("T").getContextId()).isEqualTo("C");
            assertThatThrownBy(() -> client.getTask("BAD"))
                    .isInstanceOf(InvalidResponseException.class)
                    .hasMessageContaining("GetTask")
                    .hasMessageContaining("invalid Task: result.status: expected an object");
        }
    }

    // A refused connection on a call is a transport failure, told apart from the agent's errors.
    @Test
    void aRefusedCallIsAConnectFailure() throws Exception {
        URI closed = CardResolverTest.closedPort();
        AgentCard card = AgentCard.newBuilder().addSupportedInterfaces(AgentInterface.newBuilder()
                .setUrl(closed.toString()).setProtocolBinding("JSONRPC").setProtocolVersion("1.0")).build();
        try (A2aClient client = A2aClient.forCard(card, ClientConfig.defaults())) {
            assertThatThrownBy(() -> client.getTask("T"))
                    .isInstanceOfSatisfying(TransportException.class, e -> {
                        assertThat(e.kind()).isEqualTo(TransportException.Kind.CONNECT_FAILED);
                        assertThat(e.target()).isEqualTo(closed);
                    });
        }
    }

    // Bounded calls stay bounded: a GetTask that is never answered times out.
    @Test
    void aBoundedCallThatIsNeverAnsweredTimesOut() throws Exception {
        ClientConfig quick = ClientConfig.defaults().withTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(2), Duration.ofMillis(300));
        try (ScriptedPeer silent = new ScriptedPeer((request, out, self) -> self.hangUntilClosed());
             A2aClient client = clientFor(silent, "", quick)) {
            assertThatThrownBy(() -> client.getTask("T"))
                    .isInstanceOfSatisfying(TransportException.class,
                            e -> assertThat(e.kind()).isEqualTo(TransportException.Kind.TIMED_OUT));
        }
    }

    // A connection that breaks mid-stream is a transport failure; the events before it were delivered.
    @Test
    void aStreamCutMidwayIsATransportFailureAfterTheEventsThatArrived() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> {
            ScriptedPeer.sseHead(out);
            ScriptedPeer.chunk(out, TASK_FRAME);
            // returning closes the socket without the last chunk: the response is cut
        }); A2aClient client = clientFor(peer)) {
            StreamRecorder events = new StreamRecorder();

            assertThatThrownBy(() -> client.stream(UserMessage.text("hi"), events::onEvent))
                    .isInstanceOfSatisfying(TransportException.class,
                            e -> assertThat(e.kind()).isEqualTo(TransportException.Kind.CUT));
            assertThat(events.kinds()).containsExactly("task:SUBMITTED");
        }
    }

    // A stream the agent ends cleanly before the turn is over is no transport failure, but says so.
    @Test
    void aStreamClosedCleanlyBeforeTheTurnEndedEndsClosedEarly() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> {
            ScriptedPeer.sseHead(out);
            ScriptedPeer.chunk(out, TASK_FRAME);
            ScriptedPeer.chunk(out, WORKING_FRAME);
            ScriptedPeer.lastChunk(out);
        }); A2aClient client = clientFor(peer)) {
            StreamRecorder events = new StreamRecorder();

            StreamEnd end = client.stream(UserMessage.text("hi"), events::onEvent);

            assertThat(end).isEqualTo(new StreamEnd(StreamEnd.How.CLOSED_EARLY, 2, TaskState.TASK_STATE_WORKING));
            assertThat(end.closedEarly()).isTrue();
        }
    }

    // PEER (@a2a-js/sdk 1.2.0): a mid-stream failure is "event: error" holding a JSON-RPC error.
    // SSE (HTML §9.2.6): comments are skipped and several data lines join into one payload.
    @Test
    void anErrorEventMidStreamIsTheAgentsTypedErrorAfterTheEventsBeforeIt() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> {
            ScriptedPeer.sseHead(out);
            ScriptedPeer.chunk(out, ": keep-alive\n\n");
            ScriptedPeer.chunk(out, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\n"
                    + "data: \"result\":{\"task\":{\"id\":\"T\",\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}}\n\n");
            ScriptedPeer.chunk(out, "event: error\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,"
                    + "\"message\":\"the agent crashed\"}}\n\n");
            ScriptedPeer.lastChunk(out);
        }); A2aClient client = clientFor(peer)) {
            StreamRecorder events = new StreamRecorder();

            assertThatThrownBy(() -> client.stream(UserMessage.text("hi"), events::onEvent))
                    .isInstanceOfSatisfying(AgentErrorException.class, e -> {
                        assertThat(e.code()).isEqualTo(-32603);
                        assertThat(e.reason()).isNull();
                        assertThat(e.getMessage()).isEqualTo("INTERNAL (-32603): the agent crashed");
                    });
            assertThat(events.kinds()).containsExactly("task:SUBMITTED");
        }
    }

    // Streams are consumed as they arrive: the first event reaches the listener while the agent
    // still holds the stream open, and the listener can end it there.
    @Test
    void eachEventReachesTheListenerWhileTheStreamIsStillOpen() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> {
            ScriptedPeer.sseHead(out);
            ScriptedPeer.chunk(out, TASK_FRAME);
            self.hangUntilClosed();
        }); A2aClient client = clientFor(peer)) {

            StreamEnd end = assertTimeoutPreemptively(WAIT, () -> client.stream(UserMessage.text("hi"), event -> false));

            assertThat(end).isEqualTo(new StreamEnd(StreamEnd.How.STOPPED, 1, TaskState.TASK_STATE_SUBMITTED));
        }
    }

    // PROTOCOL (A2A §3.1.2): nothing follows a terminal state, so the client stops reading there even
    // when a server keeps the connection open.
    @Test
    void aTerminalStateEndsTheStreamEvenIfTheServerKeepsItOpen() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> {
            ScriptedPeer.sseHead(out);
            ScriptedPeer.chunk(out, TASK_FRAME);
            ScriptedPeer.chunk(out, WORKING_FRAME.replace("WORKING", "FAILED"));
            self.hangUntilClosed();
        }); A2aClient client = clientFor(peer)) {

            StreamEnd end = assertTimeoutPreemptively(WAIT, () -> client.stream(UserMessage.text("hi"), new StreamRecorder()::onEvent));

            assertThat(end).isEqualTo(new StreamEnd(StreamEnd.How.TURN_ENDED, 2, TaskState.TASK_STATE_FAILED));
        }
    }

    // Closing the client ends a stream another thread is reading (a stream has no bound of its own):
    // the reader gets a transport failure instead of hanging.
    @Test
    void closingTheClientEndsAStreamAnotherThreadIsReading() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> {
            ScriptedPeer.sseHead(out);
            ScriptedPeer.chunk(out, TASK_FRAME);
            self.hangUntilClosed();
        })) {
            A2aClient client = clientFor(peer);
            java.util.concurrent.CountDownLatch firstEvent = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CompletableFuture<Throwable> outcome = new java.util.concurrent.CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                try {
                    client.stream(UserMessage.text("hi"), event -> {
                        firstEvent.countDown();
                        return true;
                    });
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            });
            assertThat(firstEvent.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isTrue();

            assertTimeoutPreemptively(WAIT, client::close);

            assertThat(outcome.get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS))
                    .isInstanceOfSatisfying(TransportException.class,
                            e -> assertThat(e.kind()).isEqualTo(TransportException.Kind.CUT));
        }
    }
}
