package legate.tap.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import legate.tap.show.ExchangeEvent.Frame;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Refused;
import legate.tap.show.ExchangeEvent.StreamClosed;
import legate.tap.show.ExchangeListener;
import legate.tap.show.ExchangeLog;
import legate.tap.show.WirePrinter;
import legate.wire.sse.SseParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tap between a real client and an upstream whose every byte and pause the test controls. */
class TapProxyTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ByteArrayOutputStream console = new ByteArrayOutputStream();
    private final EventRecorder events = new EventRecorder();
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private ScriptedUpstream upstream;
    private TapProxy tap;
    private ExchangeLog log;

    @AfterEach
    void close() throws Exception {
        if (tap != null) {
            tap.stop();
        }
        if (upstream != null) {
            upstream.close();
        }
        if (log != null) {
            log.close();
        }
        http.shutdownNow();
    }

    // Rule: no buffering. A frame reaches the client, and the console, before the agent has
    // produced the next one; a tap that waited for the body's end would make the upstream wait in vain.
    @Test
    void aFrameReachesTheClientBeforeTheAgentProducesTheNext(@TempDir Path dir) throws Exception {
        CountDownLatch clientSawFirst = new CountDownLatch(1);
        AtomicBoolean waitedInVain = new AtomicBoolean();
        AtomicInteger produced = new AtomicInteger();
        upstream = new ScriptedUpstream((head, out) -> {
            ScriptedUpstream.streamHead(out);
            ScriptedUpstream.chunk(out, "data: {\"n\":1}\n\n");
            produced.set(1);
            waitedInVain.set(!clientSawFirst.await(WAIT.toMillis(), TimeUnit.MILLISECONDS));
            ScriptedUpstream.chunk(out, "data: {\"n\":2}\n\n");
            produced.set(2);
            ScriptedUpstream.lastChunk(out);
        });
        Path logFile = dir.resolve("tap.jsonl");
        log = ExchangeLog.open(logFile);
        startTap(upstream.port(), log);

        HttpResponse<InputStream> response = http.send(post("/", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendStreamingMessage\"}"),
                HttpResponse.BodyHandlers.ofInputStream());
        List<String> data = new ArrayList<>();
        int[] producedWhenFirstSeen = {-1};
        String[] consoleWhenFirstSeen = {null};
        try (InputStream body = response.body()) {
            new SseParser(1 << 20).parse(body, frame -> {
                data.add(frame.data());
                if (data.size() == 1) {
                    producedWhenFirstSeen[0] = produced.get();
                    try {
                        events.await(Frame.class, WAIT);
                    } catch (InterruptedException e) {
                        throw new java.io.InterruptedIOException("interrupted waiting for the tap's frame event");
                    }
                    consoleWhenFirstSeen[0] = console.toString(StandardCharsets.UTF_8);
                    clientSawFirst.countDown();
                }
                return true;
            });
        }

        assertThat(waitedInVain).as("the upstream waited in vain for the client to see frame 1").isFalse();
        assertThat(producedWhenFirstSeen[0]).as("frames the upstream had produced when the client saw the first")
                .isEqualTo(1);
        assertThat(data).containsExactly("{\"n\":1}", "{\"n\":2}");
        assertThat(consoleWhenFirstSeen[0]).contains("[#1] <- frame 1", "\"n\": 1").doesNotContain("\"n\": 2");

        assertThat(events.await(StreamClosed.class, WAIT).outcome()).isEqualTo(Outcome.COMPLETE);
        List<String> kinds = new ArrayList<>();
        for (String line : Files.readAllLines(logFile)) {
            kinds.add(JSON.readTree(line).get("event").asText());
        }
        assertThat(kinds).containsExactly("request", "stream-opened", "frame", "frame", "stream-closed");
        assertThat(console.toString(StandardCharsets.UTF_8).lines()).allMatch(l -> l.startsWith("[#1] "));
    }

    // Rule: a client that hangs up mid-stream costs only its own exchange: the tap hangs up on the
    // agent too (so the agent's stream for it ends) and goes on serving the next exchange.
    @Test
    void aClientThatHangsUpMidStreamLeavesTheTapServing() throws Exception {
        CountDownLatch clientGone = new CountDownLatch(1);
        CountDownLatch tapHungUp = new CountDownLatch(1);
        upstream = new ScriptedUpstream((head, out) -> {
            if (head.startsWith("GET /plain ")) {
                ScriptedUpstream.json(out, "{\"still\":\"serving\"}");
                return;
            }
            ScriptedUpstream.streamHead(out);
            ScriptedUpstream.chunk(out, "data: frame-1\n\n");
            clientGone.await(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            long deadline = System.nanoTime() + WAIT.toNanos();
            try {
                while (System.nanoTime() < deadline) {
                    ScriptedUpstream.chunk(out, "data: more\n\n");
                }
            } catch (java.io.IOException e) {
                tapHungUp.countDown();
                throw e;
            }
        });
        startTap(upstream.port());

        try (Socket client = new Socket(InetAddress.getLoopbackAddress(), tap.port())) {
            client.setSoTimeout((int) WAIT.toMillis());
            OutputStream out = client.getOutputStream();
            out.write(("POST /stream HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + "A2A-Version: 1.0\r\nContent-Length: 2\r\n\r\n{}").getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = client.getInputStream();
            StringBuilder seen = new StringBuilder();
            byte[] buf = new byte[1024];
            while (!seen.toString().contains("frame-1")) {
                int n = in.read(buf);
                assertThat(n).as("the stream ended before its first frame").isPositive();
                seen.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
            }
            client.setSoLinger(true, 0);
        }
        clientGone.countDown();

        assertThat(events.await(StreamClosed.class, WAIT).outcome()).isEqualTo(Outcome.CLIENT_GONE);
        assertThat(tapHungUp.await(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                .as("the tap closed its connection to the agent").isTrue();
        HttpResponse<String> next = http.send(HttpRequest.newBuilder(tap.url().resolve("/plain")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(next.statusCode()).isEqualTo(200);
        assertThat(next.body()).isEqualTo("{\"still\":\"serving\"}");
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("[#1] == stream closed", "the client went away");
    }

    // Rule: an agent that is down gets the client a 502 whose body is a JSON-RPC error naming the
    // target (with the request's id), and a line in the tap's output; the tap stays up.
    @Test
    void anUnreachableAgentGets502WithAJsonRpcErrorNamingIt() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        startTap(closedPort);

        for (int id = 7; id <= 8; id++) {
            HttpResponse<String> r = http.send(post("/", "{\"jsonrpc\":\"2.0\",\"id\":" + id
                    + ",\"method\":\"GetTask\",\"params\":{\"id\":\"t\"}}"), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(502);
            assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
            JsonNode body = JSON.readTree(r.body());
            assertThat(body.get("jsonrpc").asText()).isEqualTo("2.0");
            assertThat(body.get("id").asInt()).isEqualTo(id);
            assertThat(body.get("error").get("code").asInt()).isEqualTo(-32603);
            assertThat(body.get("error").get("message").asText()).contains("http://127.0.0.1:" + closedPort);
            assertThat(events.await(Refused.class, WAIT).status()).isEqualTo(502);
        }
        assertThat(console.toString(StandardCharsets.UTF_8))
                .contains("[#1] !! 502 ", "[#2] !! 502 ", "http://127.0.0.1:" + closedPort);
    }

    private void startTap(int upstreamPort, ExchangeListener... more) throws Exception {
        List<ExchangeListener> listeners = new ArrayList<>();
        listeners.add(new WirePrinter(new PrintStream(console, true, StandardCharsets.UTF_8), false));
        listeners.addAll(List.of(more));
        listeners.add(events);
        tap = new TapProxy(TapConfig.loopback(0, URI.create("http://127.0.0.1:" + upstreamPort)), listeners,
                Clock.systemUTC());
        tap.start();
    }

    private HttpRequest post(String path, String json) {
        return HttpRequest.newBuilder(tap.url().resolve(path))
                .header("Content-Type", "application/json")
                .header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
    }
}
