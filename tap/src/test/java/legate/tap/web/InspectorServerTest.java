package legate.tap.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import legate.tap.show.ExchangeEvent.Header;
import legate.tap.show.ExchangeEvent.Outcome;
import legate.tap.show.ExchangeEvent.Request;
import legate.tap.show.ExchangeEvent.Response;
import legate.wire.json.WireJson;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The inspector's server as pages reach it over real sockets: bounded feeds, and who it answers. */
class InspectorServerTest {
    private static final int TIMEOUT_MS = 15_000;
    private Inspector inspector;

    @AfterEach
    void stop() {
        if (inspector != null) {
            inspector.close();
        }
    }

    // Rule: a page that stops reading never holds up the tap. The listener only queues; when the
    // page's queue is full, events are dropped and counted, the page is told once it reads again,
    // and another page still follows live. (Were on() to wait for the page, this test would hang.)
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aStuckPageHasItsEventsDroppedAndNeverHoldsUpTheTap() throws Exception {
        inspector = new Inspector("127.0.0.1", 0, URI.create("http://127.0.0.1"), Clock.systemUTC(), 64 * 1024);
        int port = inspector.start();
        try (Socket stuck = new Socket()) {
            stuck.setReceiveBufferSize(4096);
            stuck.connect(new InetSocketAddress("127.0.0.1", port));
            stuck.setSoTimeout(TIMEOUT_MS);
            stuck.getOutputStream().write(("GET /events HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            // Once the history has passed, the page follows; from here on it reads nothing.
            assertThat(readUntil(stuck.getInputStream(), "event: live")).isTrue();
            assertThat(inspector.pages()).isEqualTo(1);
            byte[] body = "x".repeat(8 * 1024).getBytes(StandardCharsets.UTF_8);
            long n = 0;
            while (inspector.droppedForPages() == 0 && n < 20_000) {
                inspector.on(new Request(++n, Instant.now(), "POST", "/", "HTTP/1.1", List.of(), body));
            }
            assertThat(inspector.droppedForPages()).as("events dropped for the stuck page").isPositive();

            // Another page opens and still follows live.
            HttpResponse<Stream<String>> live = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    inspector.url().resolve("/events")).build(), HttpResponse.BodyHandlers.ofLines());
            Iterator<String> lines = live.body().iterator();
            while (!lines.next().startsWith("event: live")) {
                // the history first
            }
            inspector.on(new Request(++n, Instant.now(), "GET", "/after-the-stuck-page", "HTTP/1.1", List.of(), new byte[0]));
            String line;
            do {
                line = lines.next();
            } while (!line.contains("/after-the-stuck-page"));
            live.body().close();

            // The stuck page reads again: it is told how many events it missed.
            assertThat(readUntil(stuck.getInputStream(), "event: dropped")).isTrue();
        }
    }

    // Rule: the feed (history and live) sends each event without its headers and body, with what the
    // body says that the list needs (its facts); a view gets its exchanges whole, headers (masked as
    // they were carried) and bodies included, from /exchange. Were the feed to leave them out without
    // this, the raw view and a task's view would show nothing.
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theFeedSendsSummariesAndTheExchangesComeWholeOnRequest() throws Exception {
        inspector = new Inspector("127.0.0.1", 0, URI.create("http://127.0.0.1"), Clock.systemUTC());
        inspector.start();
        List<Header> headers = List.of(new Header("Authorization", "Bearer …WXYZ"), new Header("A2A-Version", "1.0"));
        inspector.on(new Request(1, Instant.now(), "POST", "/before", "HTTP/1.1", headers, new byte[0]));
        HttpResponse<Stream<String>> live = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                inspector.url().resolve("/events")).build(), HttpResponse.BodyHandlers.ofLines());
        Iterator<String> lines = live.body().iterator();
        String history = lines.next();
        while (!history.contains("/before")) {
            history = lines.next();
        }
        assertThat(history).startsWith("data: {").doesNotContain("headers").doesNotContain("WXYZ");
        while (!lines.next().startsWith("event: live")) {
            // the rest of the history
        }
        byte[] getTask = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"task-9\","
                + "\"note\":\"a body the feed leaves out\"}}").getBytes(StandardCharsets.UTF_8);
        inspector.on(new Request(2, Instant.now(), "POST", "/after-1", "HTTP/1.1", headers, getTask));
        byte[] task = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"task-9\",\"contextId\":\"ctx-4\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}}"
                .getBytes(StandardCharsets.UTF_8);
        inspector.on(new Response(2, Instant.now(), 200, headers, task, task.length, Outcome.COMPLETE, Duration.ofMillis(3)));
        inspector.on(new Request(3, Instant.now(), "POST", "/after-2", "HTTP/1.1", headers, new byte[0]));
        List<String> sent = new ArrayList<>();
        String line;
        do {
            line = lines.next();
            if (line.startsWith("data: {")) {
                sent.add(line.substring("data: ".length()));
            }
        } while (!line.contains("/after-2"));
        live.body().close();
        for (String l : sent) {
            assertThat(l).doesNotContain("headers").doesNotContain("WXYZ").doesNotContain("\"body\"")
                    .doesNotContain("a body the feed leaves out");
        }
        JsonNode request = WireJson.mapper().readTree(sent.get(sent.size() - 3));
        assertThat(request.path("target").asText()).isEqualTo("/after-1");
        assertThat(request.path("facts").path("rpc").asText()).isEqualTo("GetTask");
        assertThat(request.path("facts").path("taskIds").toString()).isEqualTo("[\"task-9\"]");
        JsonNode answer = WireJson.mapper().readTree(sent.get(sent.size() - 2));
        assertThat(answer.path("status").asInt()).isEqualTo(200);
        assertThat(answer.path("facts").path("tasks").toString())
                .isEqualTo("[{\"id\":\"task-9\",\"contextId\":\"ctx-4\",\"state\":\"TASK_STATE_WORKING\"}]");

        HttpResponse<String> whole = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                inspector.url().resolve("/exchange?n=2")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(whole.statusCode()).isEqualTo(200);
        assertThat(whole.body()).contains("\"target\":\"/after-1\"").contains("\"Authorization\":\"Bearer …WXYZ\"")
                .contains("a body the feed leaves out").contains("TASK_STATE_WORKING").doesNotContain("/after-2");
        HttpResponse<String> several = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                inspector.url().resolve("/exchange?n=3,1")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(several.body().lines().map(l -> l.replaceAll(".*\"target\":\"([^\"]+)\".*", "$1")))
                .as("in the order they came").containsExactly("/before", "/after-2");
        assertThat(HttpClient.newHttpClient().send(HttpRequest.newBuilder(inspector.url().resolve("/exchange?n=99")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
        assertThat(HttpClient.newHttpClient().send(HttpRequest.newBuilder(inspector.url().resolve("/exchange?n=x")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(400);
        assertThat(HttpClient.newHttpClient().send(HttpRequest.newBuilder(inspector.url().resolve("/exchange?n=1,")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(400);
    }

    // Rule: on a loopback bind only loopback names are answered (DNS rebinding); a request that changes
    // something needs the page's own header and, when it names an origin, the inspector's own.
    @Test
    void foreignHostsAndCrossSitePostsAreRefused() throws Exception {
        inspector = new Inspector("127.0.0.1", 0, URI.create("http://127.0.0.1"), Clock.systemUTC());
        int port = inspector.start();
        String self = "127.0.0.1:" + port;
        assertThat(status(port, "GET /status", "evil.example:" + port, "")).isEqualTo(403);
        assertThat(status(port, "GET /status", "localhost:" + port, "")).isEqualTo(200);
        assertThat(status(port, "POST /send", self, "")).isEqualTo(403);
        assertThat(status(port, "POST /send", self, "X-Legate-Inspector: 1\r\nOrigin: http://evil.example\r\n")).isEqualTo(403);
        // A replay has no composer: the page's own request is refused with 409, and says why.
        assertThat(status(port, "POST /send", self, "X-Legate-Inspector: 1\r\nOrigin: http://" + self + "\r\n")).isEqualTo(409);
        assertThat(status(port, "POST /import", self, "X-Legate-Inspector: 1\r\n")).isEqualTo(400);
    }

    private static int status(int port, String requestLine, String host, String headers) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(TIMEOUT_MS);
            s.getOutputStream().write((requestLine + " HTTP/1.1\r\nHost: " + host + "\r\n" + headers
                    + "Content-Length: 0\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            return Integer.parseInt(answer.substring(9, 12));
        }
    }

    /** Reads the socket until {@code marker} has passed; false at its end. Bounded by the socket's timeout. */
    private static boolean readUntil(InputStream in, String marker) throws IOException {
        byte[] buf = new byte[64 * 1024];
        String tail = "";
        int r;
        while ((r = in.read(buf)) >= 0) {
            String s = tail + new String(buf, 0, r, StandardCharsets.ISO_8859_1);
            if (s.contains(marker)) {
                return true;
            }
            tail = s.substring(Math.max(0, s.length() - marker.length()));
        }
        return false;
    }
}
