package legate.a2a.server.jsonrpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.card.LegateCards;
import legate.a2a.server.http.PeerForwarding;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.a2a.server.task.InstanceGroup;
import legate.a2a.server.task.UnsettledTasks;
import legate.testsupport.Cleanup;
import legate.testsupport.ScriptedPeer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The forwarding of a conversation's requests to the instance that runs it (README "Several
 * instances on one PostgreSQL"), with a {@link ScriptedPeer} as that instance: the request arrives
 * there as it came, with the headers that matter and the mark that stops a second forward, and its
 * answer comes back byte for byte, each SSE frame as soon as it was sent; a request already
 * forwarded is never forwarded again, and an instance that cannot be reached is a clear error.
 */
class PeerForwardingTest {
    private static final String FRAME_1 = "id: 7\ndata: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{\"statusUpdate\":{}}}\n\n";
    private static final String FRAME_2 = ": a comment\n\nid: 8\ndata: {\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n\n";
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @RegisterExtension
    final Cleanup cleanup = new Cleanup();

    /** The group as one instance sees it: the contexts another instance runs, and where. */
    private record Elsewhere(Map<String, URI> runners) implements InstanceGroup {
        @Override
        public void join(int boundPort, UnsettledTasks unsettled) {
        }

        @Override
        public Optional<URI> runnerElsewhere(String contextId) {
            return Optional.ofNullable(runners.get(contextId));
        }

        @Override
        public Watch watch(String taskId, Runnable appended) {
            return () -> {
            };
        }

        @Override
        public void close() {
        }
    }

    /** The last instance {@link #instance} started. */
    private AgentServer started;

    private URI instance(Map<String, URI> runners) throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0),
                port -> LegateCards.jsonRpc("here", "one instance", "http://127.0.0.1:" + port + "/").build(),
                (ctx, events) -> {
                    throw new AssertionError("a conversation that runs elsewhere reached this executor");
                }, new InMemoryTaskStore(), Clock.systemUTC(), new Elsewhere(runners));
        int port = cleanup.start("instance", server, AgentServer::start, AgentServer::openStreams);
        started = server;
        return URI.create("http://127.0.0.1:" + port + "/");
    }

    /**
     * The instance that runs the conversation: it streams {@link #FRAME_1}, holds the stream until
     * {@code mayGoOn}, then sends {@code rest} (null: nothing more) and ends it.
     */
    private ScriptedPeer runnerHoldingAfterFrame1(CountDownLatch mayGoOn, String rest) throws IOException {
        return cleanup.register(new ScriptedPeer((request, out, self) -> {
            ScriptedPeer.sseHead(out);
            ScriptedPeer.chunk(out, FRAME_1);
            mayGoOn.await(10, TimeUnit.SECONDS);
            if (rest != null) {
                ScriptedPeer.chunk(out, rest);
            }
            ScriptedPeer.lastChunk(out);
        }));
    }

    private static String send(String contextId) {
        return "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"SendStreamingMessage\",\"params\":{\"message\":{"
                + "\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"contextId\":\"" + contextId + "\",\"parts\":[{\"text\":\"hi\"}]}}}";
    }

    private static HttpRequest.Builder request(URI url, String body) {
        return HttpRequest.newBuilder(url).header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(20));
    }

    @Test
    void aTurnOfAConversationElsewhereGoesThereWithItsHeadersAndComesBackByteForByteFrameByFrame() throws Exception {
        CountDownLatch secondFrameMayGo = new CountDownLatch(1);
        ScriptedPeer runner = runnerHoldingAfterFrame1(secondFrameMayGo, FRAME_2);
        URI here = instance(Map.of("ctx-there", runner.url()));

        HttpResponse<Stream<String>> answer = HTTP.send(request(here, send("ctx-there"))
                .header("A2A-Extensions", "urn:example:ext").header("Authorization", "Bearer t0ken")
                .header("X-API-Key", "k3y").build(), HttpResponse.BodyHandlers.ofLines());

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.headers().firstValue("Content-Type")).hasValue("text/event-stream");
        Iterator<String> lines = answer.body().iterator();
        List<String> read = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            read.add(lines.next());
        }
        // The first frame is here while the runner still holds the second: relayed live, not at the end.
        assertThat(String.join("\n", read) + "\n").isEqualTo(FRAME_1);
        secondFrameMayGo.countDown();
        lines.forEachRemaining(read::add);
        assertThat(String.join("\n", read) + "\n").isEqualTo(FRAME_1 + FRAME_2);

        ScriptedPeer.Exchange arrived = runner.nextRequest(Duration.ofSeconds(5));
        assertThat(arrived.method()).isEqualTo("POST");
        assertThat(arrived.body()).isEqualTo(send("ctx-there"));
        assertThat(arrived.header("A2A-Version")).isEqualTo("1.0");
        assertThat(arrived.header("A2A-Extensions")).isEqualTo("urn:example:ext");
        assertThat(arrived.header("Authorization")).isEqualTo("Bearer t0ken");
        assertThat(arrived.header("X-API-Key")).isEqualTo("k3y");
        assertThat(arrived.header("Content-Type")).isEqualTo("application/json");
        assertThat(arrived.header(PeerForwarding.FORWARDED)).isNotNull();
    }

    // DEFECT: a stream relayed from the instance that runs its conversation was missing from this
    // instance's open streams, so its gauge said 0 while it held the caller's connection.
    @Test
    void aRelayedStreamCountsAmongThisInstancesOpenStreamsUntilItEnds() throws Exception {
        CountDownLatch mayEnd = new CountDownLatch(1);
        ScriptedPeer runner = runnerHoldingAfterFrame1(mayEnd, null);
        URI here = instance(Map.of("ctx-there", runner.url()));

        HttpResponse<Stream<String>> answer = HTTP.send(request(here, send("ctx-there")).build(),
                HttpResponse.BodyHandlers.ofLines());
        Iterator<String> lines = answer.body().iterator();
        assertThat(lines.next()).isEqualTo("id: 7");
        assertThat(started.openStreams()).as("the stream being relayed").isEqualTo(1);

        mayEnd.countDown();
        lines.forEachRemaining(line -> { });
        // The relay counts itself out just after its last write: read again within a bound.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (started.openStreams() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(started.openStreams()).as("once the relayed stream ended").isZero();
    }

    @Test
    void aRequestAlreadyForwardedIsNeverForwardedAgain() throws Exception {
        ScriptedPeer runner = cleanup.register(new ScriptedPeer((request, out, self) ->
                ScriptedPeer.respond(out, 200, "application/json", "{}")));
        URI here = instance(Map.of("ctx-there", runner.url()));

        String answer = HTTP.send(request(here, send("ctx-there")).header(PeerForwarding.FORWARDED, "1").build(),
                HttpResponse.BodyHandlers.ofString()).body();

        assertThat(answer).contains("\"id\":5").contains("\"code\":-32603").contains("forwarded here");
        assertThat(runner.takeReceived()).isEmpty();
    }

    @Test
    void anInstanceThatCannotBeReachedIsAClearErrorForTheCaller() throws Exception {
        URI gone;
        try (ServerSocket s = new ServerSocket(0)) {
            gone = URI.create("http://127.0.0.1:" + s.getLocalPort() + "/");
        }
        URI here = instance(Map.of("ctx-gone", gone));

        HttpResponse<String> answer = HTTP.send(request(here, send("ctx-gone")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(answer.body()).contains("\"code\":-32603").contains("cannot be reached").contains(gone.toString());
    }
}
