package legate.tap.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import legate.tap.proxy.RawConnection.RawResponse;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Refused;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ShownHeaders;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tap's own HTTP/1.1 on both sides, byte by byte, over real loopback sockets: what it refuses
 * and how, and how it frames what it passes. Each test names the rule it protects.
 */
class TapHttpTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int LIMIT = 1024;

    private final EventRecorder events = new EventRecorder();
    private ScriptedUpstream upstream;
    private TapProxy tap;

    @AfterEach
    void close() throws Exception {
        if (tap != null) {
            tap.stop();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    // Rule (RFC 9112 §2.2, §3, §5, §6, §7.1, RFC 9110 §5.5): whatever two HTTP parsers could read two
    // ways is refused, not repaired. The tap answers itself with a JSON-RPC error, forwards nothing,
    // and closes the connection, so no smuggled second request can reach the agent.
    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedRequests")
    void aMalformedRequestIsRefusedAndNothingIsForwarded(String rule, String request, int status) throws Exception {
        start(ScriptedUpstream::okJson, Duration.ofSeconds(120));

        JsonNode error = refused(request, status);

        assertThat(error.get("message").asText()).startsWith("legate tap: not a request the tap can forward: ");
    }

    static Stream<Arguments> malformedRequests() {
        return Stream.of(
                arguments("RFC 9112 §2.2: a bare CR", "GET / HTTP/1.1\r\nHost: localhost\rX-A: 1\r\n\r\n", 400),
                arguments("RFC 9112 §5.2: obsolete line folding",
                        "GET / HTTP/1.1\r\nHost: localhost\r\nX-A: 1\r\n 2\r\n\r\n", 400),
                arguments("RFC 9112 §5.1: whitespace between a name and its colon",
                        "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length : 2\r\n\r\n{}", 400),
                arguments("RFC 9112 §6.3: Transfer-Encoding and Content-Length together",
                        "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
                arguments("RFC 9112 §6.3: chunked not the final transfer coding",
                        "POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked, gzip\r\n\r\n", 400),
                arguments("RFC 9112 §6.1: a transfer coding the tap cannot forward is 501",
                        "POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", 501),
                arguments("RFC 9112 §6.1: Transfer-Encoding in an HTTP/1.0 request",
                        "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
                arguments("RFC 9112 §6.3: differing Content-Length values",
                        "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2, 3\r\n\r\n{}", 400),
                arguments("RFC 9110 §8.6: a Content-Length that is not digits",
                        "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: +2\r\n\r\n{}", 400),
                arguments("RFC 9112 §3.2: an HTTP/1.1 request without Host", "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", 400),
                arguments("RFC 9112 §3.2: two Host lines", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400),
                arguments("RFC 9110 §5.5: a NUL in a header value", "GET / HTTP/1.1\r\nHost: localhost\r\nX-A: a\0b\r\n\r\n", 400),
                arguments("RFC 9112 §3: a space inside the request target", "GET /a b HTTP/1.1\r\nHost: localhost\r\n\r\n", 400),
                arguments("RFC 9112 §3: no request line at all", "hello there\r\n\r\n", 400),
                arguments("RFC 9110 §15.6.6: an HTTP version other than 1.x is 505",
                        "GET / HTTP/2.0\r\nHost: localhost\r\n\r\n", 505),
                arguments("RFC 9112 §7.1: a chunk size that is not hex",
                        "POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n", 400),
                arguments("RFC 9112 §7.1: a chunk longer than its size",
                        "POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{}\r\n0\r\n\r\n", 400));
    }

    // Rule (RFC 6585 §5): a head over the tap's bound (64 KiB) is refused with 431 once the bound is
    // reached, without buffering the rest; the client still reads the answer (a lingering close).
    @Test
    void aHeadOverTheBoundIs431() throws Exception {
        start(ScriptedUpstream::okJson, Duration.ofSeconds(120));

        refused("GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "a".repeat(ClientConnection.MAX_HEAD_BYTES + 10) + "\r\n\r\n", 431);
    }

    // Rule (RFC 9110 §15.5.14, tap/README.md): a declared length over the limit gets 413 with a
    // JSON-RPC error before a body byte is read, and the client, still sending, reads the 413.
    @Test
    void aDeclaredLengthOverTheLimitIs413BeforeTheBodyIsRead() throws Exception {
        start(ScriptedUpstream::okJson, Duration.ofSeconds(120));

        JsonNode error = refused("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + (LIMIT + 1) + "\r\n\r\n"
                + "x".repeat(LIMIT + 1), 413);

        assertThat(error.get("message").asText()).contains("larger than the tap's limit of " + LIMIT + " bytes");
    }

    // Rule (RFC 9110 §10.1.1): a client that expects 100-continue is not told to send a body the tap
    // would refuse; it gets the 413 at once instead of a 100.
    @Test
    void anExpectingClientWithABodyOverTheLimitGets413Not100() throws Exception {
        start(ScriptedUpstream::okJson, Duration.ofSeconds(120));

        refused("POST / HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\nContent-Length: " + (LIMIT + 1) + "\r\n\r\n", 413);
    }

    // Rule: a chunked body declares no length, so the limit is enforced as the chunks arrive.
    @Test
    void aChunkedBodyOverTheLimitIs413() throws Exception {
        start(ScriptedUpstream::okJson, Duration.ofSeconds(120));
        String chunk = Integer.toHexString(600) + "\r\n" + "y".repeat(600) + "\r\n";

        refused("POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n" + chunk + chunk + "0\r\n\r\n", 413);
    }

    // Rule (RFC 9112 §7.1, §6.1): chunked coding belongs to the client's connection. The agent gets
    // the same body bytes with a Content-Length, and no Transfer-Encoding or trailer.
    @Test
    void aChunkedRequestReachesTheAgentWithItsLength() throws Exception {
        start(ScriptedUpstream::okJson, Duration.ofSeconds(120));

        try (RawConnection c = connect()) {
            RawResponse r = c.send("POST /rpc?x=1 HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n3;ext=1\r\n:1}\r\n0\r\nX-Trailer: t\r\n\r\n").read();
            assertThat(r.status()).isEqualTo(200);
        }

        String forwarded = upstream.requests().getFirst();
        assertThat(forwarded).startsWith("POST /rpc?x=1 HTTP/1.1\r\nHost: 127.0.0.1:" + upstream.port() + "\r\n")
                .contains("Content-Type: application/json\r\n").endsWith("Content-Length: 7\r\n\r\n{\"a\":1}")
                .doesNotContainIgnoringCase("transfer-encoding").doesNotContain("X-Trailer");
    }

    // Rule (RFC 9110 §10.1.1): a client that sends "Expect: 100-continue" waits for a 100 before its
    // body; the tap answers it itself, and the Expect stays on the client's side.
    @Test
    void anExpectingClientGets100ThenItsAnswer() throws Exception {
        start(ScriptedUpstream::okJson, Duration.ofSeconds(120));

        try (RawConnection c = connect()) {
            c.send("POST / HTTP/1.1\r\nHost: localhost\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n");
            assertThat(c.read().status()).isEqualTo(100);
            RawResponse r = c.send("{}").read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("{\"ok\":true}");
        }
        assertThat(upstream.requests().getFirst()).doesNotContainIgnoringCase("expect").endsWith("\r\n\r\n{}");
    }

    // Rule (RFC 9112 §9.3): a connection persists between exchanges, on both sides of the tap, until
    // "Connection: close"; then the tap says so in its answer and closes.
    @Test
    void keepAliveHoldsOneUpstreamConnectionUntilConnectionClose() throws Exception {
        start(ScriptedUpstream::okJson, Duration.ofSeconds(120));

        try (RawConnection c = connect()) {
            for (int i = 0; i < 3; i++) {
                RawResponse r = c.send("GET /" + i + " HTTP/1.1\r\nHost: localhost\r\n\r\n").read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.header("connection")).isNull();
            }
            RawResponse last = c.send("GET /last HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").read();
            assertThat(last.header("connection")).isEqualTo("close");
            assertThat(last.body()).isEqualTo("{\"ok\":true}");
            assertThat(c.closedByPeer()).isTrue();
        }
        assertThat(upstream.requests()).hasSize(4);
        assertThat(upstream.connections()).as("upstream connections for one client connection").isEqualTo(1);
        assertThat(upstream.requests().getLast()).as("Connection is hop-by-hop").doesNotContainIgnoringCase("connection:");
    }

    // Rule (RFC 9112 §9.3.2): requests a client pipelines are answered in the order they were sent.
    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        start((head, out) -> ScriptedUpstream.json(out, "\"" + head.split(" ")[1] + "\""), Duration.ofSeconds(120));

        try (RawConnection c = connect()) {
            c.send("GET /one HTTP/1.1\r\nHost: localhost\r\n\r\nGET /two HTTP/1.1\r\nHost: localhost\r\n\r\nGET /three HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertThat(List.of(c.read().body(), c.read().body(), c.read().body()))
                    .containsExactly("\"/one\"", "\"/two\"", "\"/three\"");
        }
    }

    // Rule (RFC 9112 §6.3, §9.3): an HTTP/1.0 client cannot read chunked coding, so a body of unknown
    // length reaches it delimited by the connection's end, whole.
    @Test
    void anHttp10ClientGetsAChunkedBodyDelimitedByClose() throws Exception {
        start((head, out) -> {
            out.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            ScriptedUpstream.chunk(out, "{\"a\":");
            ScriptedUpstream.chunk(out, "1}");
            ScriptedUpstream.lastChunk(out);
        }, Duration.ofSeconds(120));

        try (RawConnection c = connect()) {
            RawResponse r = c.send("GET / HTTP/1.0\r\n\r\n").read();
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.header("transfer-encoding")).isNull();
            assertThat(r.header("connection")).isEqualTo("close");
            assertThat(r.body()).isEqualTo("{\"a\":1}");
        }
    }

    // Rule (RFC 9112 §9.3.1): an agent may close an idle kept-alive connection at any time; the
    // tap's next request for that client goes out on a new connection instead of failing.
    @Test
    void anUpstreamConnectionTheAgentClosedIsReopened() throws Exception {
        CountDownLatch agentClosed = new CountDownLatch(1);
        start((head, out) -> {
            ScriptedUpstream.json(out, "{\"ok\":true}");
            out.close();
            agentClosed.countDown();
        }, Duration.ofSeconds(120));

        try (RawConnection c = connect()) {
            assertThat(c.send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}").read().status()).isEqualTo(200);
            assertThat(agentClosed.await(WAIT.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
            RawResponse second = c.send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}").read();
            assertThat(second.status()).isEqualTo(200);
        }
        assertThat(upstream.connections()).isEqualTo(2);
    }

    // Rule (RFC 9110 §15.6.3): an agent's answer the tap cannot read as HTTP/1.1 gets the client a
    // 502 whose JSON-RPC error names the agent and carries the request's id; never a cut relay.
    @Test
    void anAgentAnswerThatIsNotHttpIs502() throws Exception {
        start((head, out) -> {
            out.write("SSH-2.0-OpenSSH_9.2\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            out.flush();
        }, Duration.ofSeconds(120));

        try (RawConnection c = connect()) {
            RawResponse r = c.send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 33\r\n\r\n"
                    + "{\"jsonrpc\":\"2.0\",\"id\":9,\"x\":true}").read();
            assertThat(r.status()).isEqualTo(502);
            JsonNode body = JSON.readTree(r.body());
            assertThat(body.get("id").asInt()).isEqualTo(9);
            assertThat(body.get("error").get("message").asText())
                    .contains("http://127.0.0.1:" + upstream.port(), "cannot relay");
        }
        assertThat(events.await(Refused.class, WAIT).status()).isEqualTo(502);
    }

    // Rule: a connection idle between requests is closed after the idle timeout, but an exchange in
    // progress is never cut off by it: an agent may think longer than a client connection may idle.
    @Test
    void theIdleTimeoutClosesIdleConnectionsButNotSlowAnswers() throws Exception {
        Duration idle = Duration.ofMillis(300);
        start((head, out) -> {
            Thread.sleep(3 * idle.toMillis());
            ScriptedUpstream.json(out, "{\"slow\":true}");
        }, idle);

        try (RawConnection slow = connect()) {
            RawResponse r = slow.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n").read();
            assertThat(r.body()).isEqualTo("{\"slow\":true}");
            long start = System.nanoTime();
            assertThat(slow.closedByPeer()).as("closed once idle").isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(WAIT);
        }
    }

    // Rule: stop() breaks off every exchange still running and still reports how each ended, so the
    // console and the log never lose the end of a stream.
    @Test
    void stopReportsTheStreamsItBreaksOff() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        start((head, out) -> {
            ScriptedUpstream.streamHead(out);
            ScriptedUpstream.chunk(out, "data: first\n\n");
            held.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        }, Duration.ofSeconds(120));

        try (RawConnection c = connect()) {
            c.send("POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\n{}");
            events.await(Frame.class, WAIT);
            tap.stop();
            tap = null;
            held.countDown();
            assertThat(events.await(StreamClosed.class, WAIT).outcome()).isNotEqualTo(Outcome.COMPLETE);
        }
    }

    private void start(ScriptedUpstream.Script script, Duration idleTimeout) throws Exception {
        upstream = new ScriptedUpstream(script);
        tap = new TapProxy(new TapConfig("127.0.0.1", 0, URI.create("http://127.0.0.1:" + upstream.port()), LIMIT),
                List.of(events), ShownHeaders.A2A, Clock.systemUTC(), idleTimeout);
        tap.start();
    }

    private RawConnection connect() throws IOException {
        return new RawConnection(tap.port(), WAIT);
    }

    /**
     * Sends a request the tap must refuse and checks the refusal: the status, a JSON-RPC error, the
     * connection closed, a Refused event, and nothing forwarded.
     *
     * @return the JSON-RPC error object
     */
    private JsonNode refused(String request, int status) throws Exception {
        JsonNode body;
        try (RawConnection c = connect()) {
            RawResponse r = c.send(request).read();
            assertThat(r.status()).isEqualTo(status);
            assertThat(r.header("content-type")).isEqualTo("application/json");
            assertThat(r.header("connection")).isEqualTo("close");
            body = JSON.readTree(r.body());
            assertThat(body.get("jsonrpc").asText()).isEqualTo("2.0");
            assertThat(body.get("error").get("code").asInt()).isEqualTo(-32600);
            assertThat(c.closedByPeer()).as("the tap closed the connection").isTrue();
        }
        assertThat(events.await(Refused.class, WAIT).status()).isEqualTo(status);
        assertThat(upstream.requests()).as("requests that reached the agent").isEmpty();
        return body.get("error");
    }
}
