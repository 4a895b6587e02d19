package legate.tap.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
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
import java.util.Collections;
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

    // Rule: a page that stops reading never holds up the tap. The listener only flags a change;
    // another page still follows live; and the stuck page, once it reads again, is told how the
    // session stands now (its last messages say so), not left with a hole. (Were on() to wait for
    // the page, this test would hang.)
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aStuckPageNeverHoldsUpTheTapAndCatchesUpWhenItReadsAgain() throws Exception {
        inspector = new Inspector("127.0.0.1", 0, URI.create("http://127.0.0.1"), Clock.systemUTC());
        int port = inspector.start();
        try (Socket stuck = new Socket()) {
            stuck.setReceiveBufferSize(4096);
            stuck.connect(new InetSocketAddress("127.0.0.1", port));
            stuck.setSoTimeout(TIMEOUT_MS);
            stuck.getOutputStream().write(("GET /events HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            assertThat(readUntil(stuck.getInputStream(), "event: live")).isTrue();
            assertThat(inspector.pages()).isEqualTo(1);
            // From here on the stuck page reads nothing while 5,000 exchanges pass.
            byte[] body = "x".repeat(8 * 1024).getBytes(StandardCharsets.UTF_8);
            int n = 5_000;
            for (int i = 1; i <= n; i++) {
                inspector.on(new Request(i, Instant.now(), "POST", "/long-path-" + "y".repeat(200) + i, "HTTP/1.1",
                        List.of(), body));
            }

            HttpResponse<Stream<String>> live = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    inspector.url().resolve("/events")).build(), HttpResponse.BodyHandlers.ofLines());
            Iterator<String> lines = live.body().iterator();
            String first = lines.next();
            while (!first.startsWith("data: {")) {
                first = lines.next();
            }
            JsonNode state = WireJson.mapper().readTree(first.substring("data: ".length()));
            assertThat(state.path("counts").path("exchanges").asLong()).isEqualTo(n);
            assertThat(state.path("rows").size()).as("the newest rows only").isEqualTo(SessionHistory.MAX_LISTED);
            assertThat(state.path("rows").get(0).path("n").asLong()).as("newest first").isEqualTo(n);
            inspector.on(new Request(n + 1, Instant.now(), "GET", "/after-the-stuck-page", "HTTP/1.1", List.of(), new byte[0]));
            String line;
            do {
                line = lines.next();
            } while (!line.contains("/after-the-stuck-page"));
            live.body().close();

            // The stuck page reads again: it catches up with the exchange that came last.
            assertThat(readUntil(stuck.getInputStream(), "\"exchanges\":" + (n + 1) + ",")).isTrue();
        }
    }

    // Rule: the feed tells a page how the lists stand (counts, the newest rows that changed) with
    // what the bodies say (the method, the task ids) but never the headers or bodies themselves; a
    // view gets its exchanges whole, headers (masked as they were carried) and bodies included,
    // from /exchange, by number, by task or by context; the lists come filtered from /rows and whole
    // from /tasks and /contexts. Were the feed to leave them out without this, the raw view and a
    // task's view would show nothing.
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void theFeedSaysHowTheListsStandAndTheViewsAskForTheRest() throws Exception {
        inspector = new Inspector("127.0.0.1", 0, URI.create("http://127.0.0.1"), Clock.systemUTC());
        inspector.start();
        List<Header> headers = List.of(new Header("Authorization", "Bearer …WXYZ"), new Header("A2A-Version", "1.0"));
        inspector.on(new Request(1, Instant.now(), "POST", "/before", "HTTP/1.1", headers, new byte[0]));
        HttpResponse<Stream<String>> live = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                inspector.url().resolve("/events")).build(), HttpResponse.BodyHandlers.ofLines());
        Iterator<String> lines = live.body().iterator();
        byte[] getTask = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"GetTask\",\"params\":{\"id\":\"task-9\","
                + "\"note\":\"a body the feed leaves out\"}}").getBytes(StandardCharsets.UTF_8);
        inspector.on(new Request(2, Instant.now(), "POST", "/after-1", "HTTP/1.1", headers, getTask));
        byte[] task = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"task-9\",\"contextId\":\"ctx-4\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}}"
                .getBytes(StandardCharsets.UTF_8);
        inspector.on(new Response(2, Instant.now(), 200, headers, task, task.length, Outcome.COMPLETE, Duration.ofMillis(3)));
        inspector.on(new Request(3, Instant.now(), "POST", "/after-2", "HTTP/1.1", headers, new byte[0]));
        List<String> sent = new ArrayList<>();
        JsonNode last;
        do {
            String line = lines.next();
            if (line.startsWith("data: {")) {
                sent.add(line);
            }
            last = sent.isEmpty() ? null : WireJson.mapper().readTree(sent.getLast().substring("data: ".length()));
        } while (last == null || last.path("counts").path("exchanges").asLong() < 3);
        live.body().close();
        for (String l : sent) {
            assertThat(l).doesNotContain("headers").doesNotContain("WXYZ").doesNotContain("a body the feed leaves out");
        }
        assertThat(last.path("counts").path("tasks").asLong()).isEqualTo(1);
        assertThat(last.path("counts").path("contexts").asLong()).isEqualTo(1);
        JsonNode row2 = null;
        for (String l : sent) {
            for (JsonNode r : WireJson.mapper().readTree(l.substring("data: ".length())).path("rows")) {
                if (r.path("n").asLong() == 2) {
                    row2 = r;
                }
            }
        }
        assertThat(row2).as("exchange 2's row").isNotNull();
        assertThat(row2.path("label").asText()).isEqualTo("GetTask");
        assertThat(row2.path("status").asInt()).isEqualTo(200);
        assertThat(row2.path("taskIds").toString()).isEqualTo("[\"task-9\"]");

        assertThat(get("/rows?method=gettask").path("rows").findValuesAsText("n")).containsExactly("2");
        assertThat(get("/rows?task=TASK-9").path("rows").findValuesAsText("n")).as("case-insensitive").containsExactly("2");
        assertThat(get("/rows?method=post%20%2Fafter").path("rows").findValuesAsText("n")).containsExactly("3");
        assertThat(get("/rows").path("rows").findValuesAsText("n")).containsExactly("3", "2", "1");
        assertThat(get("/tasks").path("tasks").toString())
                .isEqualTo("[{\"id\":\"task-9\",\"contextId\":\"ctx-4\",\"state\":\"TASK_STATE_WORKING\"}]");
        assertThat(get("/contexts").path("contexts").toString()).isEqualTo("[{\"id\":\"ctx-4\",\"tasks\":1}]");

        for (String query : List.of("n=2", "task=task-9", "context=ctx-4")) {
            HttpResponse<String> whole = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    inspector.url().resolve("/exchange?" + query)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(whole.statusCode()).as(query).isEqualTo(200);
            assertThat(whole.body()).as(query).contains("\"target\":\"/after-1\"").contains("\"Authorization\":\"Bearer …WXYZ\"")
                    .contains("a body the feed leaves out").contains("TASK_STATE_WORKING").doesNotContain("/after-2");
        }
        HttpResponse<String> several = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                inspector.url().resolve("/exchange?n=3,1")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(several.body().lines().map(l -> l.replaceAll(".*\"target\":\"([^\"]+)\".*", "$1")))
                .as("in the order they came").containsExactly("/before", "/after-2");
        for (String bad : List.of("/exchange?n=99", "/exchange?task=no-such-task")) {
            assertThat(status(bad)).as(bad).isEqualTo(404);
        }
        for (String bad : List.of("/exchange?n=x", "/exchange?n=1,")) {
            assertThat(status(bad)).as(bad).isEqualTo(400);
        }
        // A broken %-escape, which the JDK's client will not send: over a socket.
        try (Socket raw = new Socket("127.0.0.1", inspector.url().getPort())) {
            raw.setSoTimeout(TIMEOUT_MS);
            raw.getOutputStream().write(("GET /rows?method=%zz HTTP/1.1\r\nHost: 127.0.0.1:" + inspector.url().getPort()
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            assertThat(new String(raw.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 400");
        }
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(inspector.url().resolve(path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path).isEqualTo(200);
        return WireJson.mapper().readTree(r.body());
    }

    private int status(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(inspector.url().resolve(path)).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
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
        // Issue 30, defect 3: the check the A2A server and the MCP endpoint share (KnownHosts), IPv6 loopback included.
        assertThat(status(port, "GET /status", "rebind.attacker.example:" + port, "")).isEqualTo(403);
        assertThat(status(port, "GET /status", "[::1]:" + port, "")).isEqualTo(200);
        assertThat(status(port, "GET /status", "[0:0:0:0:0:0:0:1]:" + port, "")).as("the same address written out")
                .isEqualTo(200);
        assertThat(status(port, "POST /send", self, "")).isEqualTo(403);
        assertThat(status(port, "POST /send", self, "X-Legate-Inspector: 1\r\nOrigin: http://evil.example\r\n")).isEqualTo(403);
        // A replay has no composer: the page's own request is refused with 409, and says why.
        assertThat(status(port, "POST /send", self, "X-Legate-Inspector: 1\r\nOrigin: http://" + self + "\r\n")).isEqualTo(409);
        assertThat(status(port, "POST /import", self, "X-Legate-Inspector: 1\r\n")).isEqualTo(400);
    }

    // DEFECT (issue 30): an inspector bound wider than loopback answered every Host, so a rebinding
    // page under its own name (Origin the same, the page's header sent) read /rows and posted /send.
    // On every bind it answers loopback names, the machine's addresses and TAP_ALLOWED_HOSTS only.
    @Test
    void anInspectorBoundToEveryInterfaceRefusesARebindingHost() throws Exception {
        inspector = new Inspector("0.0.0.0", 0, URI.create("http://127.0.0.1"), Clock.systemUTC(),
                List.of("inspector.example"));
        int port = inspector.start();
        String rebind = "rebind.attacker.example:" + port;
        assertThat(status(port, "GET /rows", rebind, "")).isEqualTo(403);
        assertThat(status(port, "GET /status", rebind, "")).isEqualTo(403);
        assertThat(status(port, "POST /send", rebind, "X-Legate-Inspector: 1\r\nOrigin: http://" + rebind + "\r\n"))
                .isEqualTo(403);
        List<String> known = new ArrayList<>(List.of("127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port,
                "inspector.example:" + port));
        String address = interfaceAddress();
        if (address != null) {
            known.add(address + ":" + port);
        }
        for (String host : known) {
            assertThat(status(port, "GET /status", host, "")).as(host).isEqualTo(200);
            assertThat(status(port, "GET /rows", host, "")).as(host).isEqualTo(200);
        }
    }

    /** TAP_ALLOWED_HOSTS=* turns the Host check off, said out loud, as ALLOWED_HOSTS=* does for the agent. */
    @Test
    void anAllowedHostsStarAnswersEveryHostAsSaid() throws Exception {
        inspector = new Inspector("0.0.0.0", 0, URI.create("http://127.0.0.1"), Clock.systemUTC(), List.of("*"));
        int port = inspector.start();

        assertThat(status(port, "GET /status", "rebind.attacker.example:" + port, "")).isEqualTo(200);
    }

    /** A non-loopback IPv4 address of this machine, as a caller on the network would dial it; null when it has none. */
    private static String interfaceAddress() throws IOException {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
                    return a.getHostAddress();
                }
            }
        }
        return null;
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
