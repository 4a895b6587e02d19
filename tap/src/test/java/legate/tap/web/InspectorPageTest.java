package legate.tap.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
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
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import legate.a2a.model.grpc.GrpcMetadata;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.tap.proxy.TapConfig;
import legate.tap.proxy.TapProxy;
import legate.tap.show.ProtocolCheck;
import legate.tap.show.ShownHeaders;
import legate.tap.show.WirePrinter;
import legate.wire.json.WireJson;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.Message;
import lf.a2a.v1.Part;
import lf.a2a.v1.Role;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.StreamResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The inspector page as a person sees it: a real headless Chromium opens it while the tests drive
 * A2A traffic through a real tap in front of Revisor:
 *
 * <pre>
 *   JDK HttpClient, grpc-java -> TapProxy -> AgentServer + Revisor (HTTP, and gRPC on its own port)
 *                                  | ProtocolCheck -> Inspector <- /events (SSE) <- Chromium
 * </pre>
 *
 * One browser, one tap and one agent for the class, so the tests stay few and fast. With
 * {@code -Dlegate.screenshots=DIR} the tests also save the screenshots the README shows.
 */
class InspectorPageTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final Pattern TASK_ID = Pattern.compile("\"task\":\\{\"id\":\"([^\"]+)\"");
    private static final Pattern CONTEXT_ID = Pattern.compile("\"contextId\":\"([^\"]+)\"");
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static AgentServer agent;
    private static TapProxy tap;
    private static Inspector inspector;
    private static ChromeDriver chrome;
    private static Path downloads;
    private static ManagedChannel grpc;

    @BeforeAll
    static void start() throws Exception {
        inspector = new Inspector("127.0.0.1", 0, URI.create("http://127.0.0.1"), Clock.systemUTC());
        PrintStream console = new PrintStream(PrintStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        int grpcPort;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            grpcPort = free.getLocalPort();
        }
        agent = AgentServer.create(ServerConfig.loopback(0).withGrpcPort(grpcPort), agentPort -> {
            tap = new TapProxy(TapConfig.loopback(0, URI.create("http://127.0.0.1:" + agentPort))
                    .withGrpcTarget("127.0.0.1:" + grpcPort),
                    List.of(new ProtocolCheck(List.of(new WirePrinter(console, false), inspector))),
                    ShownHeaders.ALL, Clock.systemUTC());
            try {
                tap.start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return RevisorCard.build(null, tap.url().toString());
        }, new RevisorExecutor(Duration.ofMillis(40)));
        agent.start();
        inspector.sendThrough(tap.url());
        inspector.start();
        downloads = Files.createTempDirectory("legate-inspector-downloads");
        chrome = Chromium.start(downloads);
        chrome.get(inspector.url().toString());
        waitFor(() -> chrome.findElement(By.id("mode")).getText().equals("live"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (chrome != null) {
            chrome.quit();
        }
        if (inspector != null) {
            inspector.close();
        }
        if (tap != null) {
            tap.stop();
        }
        if (agent != null) {
            agent.stop();
        }
        if (grpc != null) {
            grpc.shutdownNow();
            grpc.awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    // Rule: the page is live. An exchange made after the page opened appears in its list without a reload.
    @Test
    void theExchangeListFillsLive() throws Exception {
        long before = newestExchange();
        send("SendMessage", "Count these words. Twice over.", true, null);
        // The row comes with the request and is completed by the response, which a later message may carry.
        view("exchanges");
        waitFor(() -> newestListed() > before && rows().getFirst().getText().contains("200"));
        WebElement row = rows().getFirst();
        assertThat(row.getText()).contains("SendMessage").contains("200");
        screenshot("inspector-exchanges");
    }

    // Rule: an HTTP+JSON exchange (A2A §11) is listed as a JSON-RPC one is, by its method and path,
    // and the task its stream carried gets its timeline.
    @Test
    void aRestStreamIsListedByMethodAndPathAndItsTaskHasItsTimeline() throws Exception {
        long before = newestExchange();
        String stream = HTTP.send(HttpRequest.newBuilder(tap.url().resolve("/message:stream"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"message\":{\"messageId\":\"m-" + System.nanoTime()
                        + "\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"Over REST. Two sentences!\"}]}}")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        String taskId = found(TASK_ID, stream);
        view("exchanges");
        waitFor(() -> !rows().isEmpty() && rows().getFirst().getText().contains("POST /message:stream")
                && rows().getFirst().getText().contains("200"));
        assertThat(Long.parseLong(rows().getFirst().getAttribute("data-exchange"))).as("a new row").isGreaterThan(before);
        pick("tasks", taskId);
        waitFor(() -> states().contains("TASK_STATE_COMPLETED"));
        assertThat(states()).containsExactly("TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED");
    }

    // Rule (A2A §10): a gRPC call through the tap is an exchange like any other: listed by its rpc
    // and status, its stream's task given its timeline, an error's status and ErrorInfo in the raw
    // view, which offers the call again as grpcurl rather than curl.
    @Test
    void aGrpcCallIsListedAndItsStreamsTaskHasItsTimeline() throws Exception {
        grpc = NettyChannelBuilder.forAddress("127.0.0.1", tap.port()).usePlaintext().build();
        Metadata version = new Metadata();
        version.put(GrpcMetadata.VERSION, "1.0");
        A2AServiceGrpc.A2AServiceBlockingStub stub = A2AServiceGrpc.newBlockingStub(grpc)
                .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(version));
        List<StreamResponse> events = new ArrayList<>();
        stub.sendStreamingMessage(SendMessageRequest.newBuilder().setMessage(Message.newBuilder()
                .setMessageId("m-" + System.nanoTime()).setRole(Role.ROLE_USER)
                .addParts(Part.newBuilder().setText("Over gRPC. Two sentences!"))).build()).forEachRemaining(events::add);
        String taskId = events.getFirst().getTask().getId();
        view("exchanges");
        waitFor(() -> rows().stream().anyMatch(r -> r.getText().contains("gRPC SendStreamingMessage")
                && r.getText().contains("200 OK stream, " + events.size() + " frames")));
        pick("tasks", taskId);
        waitFor(() -> states().contains("TASK_STATE_COMPLETED"));
        assertThat(states()).containsExactly("TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED");

        assertThatThrownBy(() -> stub.getTask(GetTaskRequest.newBuilder().setId("no-such-grpc-task").build()))
                .isInstanceOf(StatusRuntimeException.class);
        view("exchanges");
        waitFor(() -> !rows().isEmpty() && rows().getFirst().getText().contains("gRPC GetTask")
                && rows().getFirst().getText().contains("200 NOT_FOUND"));
        rows().getFirst().click();
        waitFor(() -> chrome.findElement(By.id("raw")).getText().contains("grpc-status-details-bin"));
        assertThat(chrome.findElement(By.id("raw")).getText()).contains("POST /lf.a2a.v1.A2AService/GetTask HTTP/2")
                .contains("grpc-status 5 NOT_FOUND").contains("TASK_NOT_FOUND").contains("no-such-grpc-task");
        assertThat(chrome.findElement(By.id("curl")).getText()).startsWith("grpcurl -plaintext")
                .contains("-H 'a2a-version: 1.0'").contains("-d '{\"id\":\"no-such-grpc-task\"}'")
                .endsWith("127.0.0.1:" + tap.port() + " lf.a2a.v1.A2AService/GetTask");
        assertThat(chrome.findElement(By.id("copy-curl")).getText()).isEqualTo("Copy as grpcurl");
    }

    // Rule (A2A §3.1.2, §3.1.3): a task's timeline shows its states in the order they happened,
    // SUBMITTED, then WORKING, then the terminal state, each with its time.
    @Test
    void aTasksTimelineShowsItsStatesInOrder() throws Exception {
        String stream = send("SendStreamingMessage", "One sentence here. And another one!", true, null);
        String taskId = found(TASK_ID, stream);
        pick("tasks", taskId);
        waitFor(() -> states().contains("TASK_STATE_COMPLETED"));
        assertThat(states()).containsExactly("TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_COMPLETED");
        assertThat(chrome.findElement(By.id("task-detail")).getText()).contains("Words: 6");
        screenshot("inspector-task");
        pick("contexts", found(CONTEXT_ID, stream));
        waitFor(() -> chrome.findElement(By.id("context-detail")).getText().contains(taskId));
        assertThat(chrome.findElement(By.id("context-detail")).getText())
                .contains("user: One sentence here. And another one!").contains("artifact");
        screenshot("inspector-context");
    }

    // Rule: the page is live in every view. A context's view reads its exchanges whole from the tap
    // when drawn, and again when the feed says one of its tasks changed: a later turn in the
    // conversation shows in the open view without another click.
    @Test
    void anOpenContextViewShowsALaterTurnWithoutAnotherClick() throws Exception {
        String first = send("SendMessage", "The first turn.", true, null);
        String contextId = found(CONTEXT_ID, first);
        pick("contexts", contextId);
        waitFor(() -> chrome.findElement(By.id("context-detail")).getText().contains("user: The first turn."));
        send("SendMessage", "The second turn.", true, null, contextId);
        waitFor(() -> chrome.findElement(By.id("context-detail")).getText().contains("user: The second turn."));
        assertThat(chrome.findElement(By.id("context-detail")).getText().indexOf("user: The first turn."))
                .as("the turns top to bottom").isLessThan(chrome.findElement(By.id("context-detail")).getText()
                        .indexOf("user: The second turn."));
    }

    // Rule: the list is filterable by method, status, task id and context id. A filter asks the
    // tap, which searches every exchange it keeps, not only the rows the page lists.
    @Test
    void aFilterListsOnlyTheMatchingExchanges() throws Exception {
        String taskId = found(TASK_ID, send("SendMessage", "Filter me. Please.", true, null));
        send("SendMessage", "Not this one.", true, null);
        view("exchanges");
        WebElement box = chrome.findElement(By.id("filter-task"));
        try {
            box.sendKeys(taskId.toUpperCase(Locale.ROOT));
            waitFor(() -> rows().size() == 1 && rows().getFirst().getText().contains(taskId.substring(0, 8)));
            assertThat(rows().getFirst().getText()).contains("SendMessage").contains("200");
        } finally {
            box.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        }
        waitFor(() -> rows().size() > 1);
    }

    // Rule: credentials are masked to their scheme and last 4 characters in the raw view, as on the console.
    @Test
    void theRawViewShowsTheMaskedAuthorizationHeader() throws Exception {
        send("SendMessage", "A secret-bearing request.", true, "Bearer s3cr3t-token-0123456789-WXYZ");
        view("exchanges");
        waitFor(() -> !rows().isEmpty() && rows().getFirst().getText().contains("SendMessage")
                && !rows().getFirst().getText().contains("…"));
        rows().getFirst().click();
        waitFor(() -> chrome.findElement(By.id("raw")).getText().contains("Authorization"));
        String raw = chrome.findElement(By.id("raw")).getText();
        assertThat(raw).contains("Authorization: Bearer …WXYZ").doesNotContain("s3cr3t");
        assertThat(chrome.findElement(By.id("curl")).getText()).startsWith("curl -X POST");
        screenshot("inspector-raw");
    }

    // Rule (A2A §3.2.6): a request without A2A-Version is flagged on the page's problem list.
    @Test
    void aRequestWithoutAVersionIsFlagged() throws Exception {
        send("GetTask", null, false, null);
        view("problems");
        waitFor(() -> !chrome.findElements(By.cssSelector("#problems li[data-problem='MISSING_A2A_VERSION']")).isEmpty());
        assertThat(chrome.findElement(By.cssSelector("#problems li[data-problem='MISSING_A2A_VERSION']")).getText())
                .contains("GetTask was sent without it");
        screenshot("inspector-problems");
    }

    // Rule: the session downloads as a valid HAR 1.2 file, every exchange an entry, a stream's frames kept.
    @Test
    void theHarExportDownloadsAValidHar() throws Exception {
        send("SendStreamingMessage", "Exported words.", true, null);
        chrome.findElement(By.id("export-har")).click();
        waitFor(() -> har().isPresent());
        JsonNode har = WireJson.mapper().readTree(Files.readString(har().orElseThrow()));
        assertThat(har.path("log").path("version").asText()).isEqualTo("1.2");
        assertThat(har.path("log").path("creator").path("name").asText()).isEqualTo("legate tap");
        JsonNode entries = har.path("log").path("entries");
        assertThat(entries.size()).isPositive();
        for (JsonNode e : entries) {
            assertThat(e.path("startedDateTime").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
            assertThat(e.path("request").path("url").asText()).startsWith("http://");
            assertThat(e.path("response").path("status").isInt()).isTrue();
            assertThat(e.path("timings").path("wait").isNumber()).isTrue();
        }
        assertThat(entries.findValues("_frames")).as("a stream's frames").isNotEmpty();
        assertThat(SessionFile.read(Files.readAllBytes(har().orElseThrow()))).as("read back").isNotEmpty();
    }

    // Rule: the composer is a client; its message goes through the tap and shows like any exchange.
    @Test
    void theComposerSendsThroughTheTap() {
        view("exchanges");
        chrome.findElement(By.id("compose-text")).sendKeys("Hello from the page. It works.");
        chrome.findElement(By.cssSelector("#composer button")).click();
        waitFor(() -> chrome.findElement(By.id("compose-result")).getText().startsWith("sent"));
        waitFor(() -> rows().stream().anyMatch(r -> r.getText().contains("SendStreamingMessage")
                && r.getText().contains("frames")));
    }

    // Rule: an exported session imports back into the page, which then shows it instead of the live one.
    @Test
    void anExportedSessionImportsBackIntoThePage() throws Exception {
        Path recorded = Files.createTempFile(downloads.getParent(), "recorded", ".jsonl");
        Files.writeString(recorded, "{\"at\":\"2026-12-01T10:00:00Z\",\"exchange\":41,\"event\":\"request\",\"method\":\"POST\","
                + "\"target\":\"/\",\"headers\":{},\"body\":\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":1,"
                + "\\\"method\\\":\\\"ListTasks\\\"}\"}\n");
        try {
            chrome.findElement(By.id("import")).sendKeys(recorded.toString());
            waitFor(() -> chrome.findElement(By.id("mode")).getText().startsWith("imported"));
            view("exchanges");
            waitFor(() -> rows().size() == 1 && rows().getFirst().getText().contains("ListTasks"));
            assertThat(rows().getFirst().getAttribute("data-exchange")).isEqualTo("41");
        } finally {
            // Back to the live session for the other tests.
            chrome.get(inspector.url().toString());
            waitFor(() -> chrome.findElement(By.id("mode")).getText().equals("live"));
            Files.deleteIfExists(recorded);
        }
    }

    /**
     * The downloaded HAR once Chromium has finished it. Chromium reserves the final name with an
     * empty file while it writes the download beside it as {@code .crdownload}, then moves that
     * over it: the name alone may be seen before a byte is written (it failed once in CI so).
     */
    private static Optional<Path> har() {
        try (Stream<Path> files = Files.list(downloads)) {
            List<Path> all = files.toList();
            if (all.stream().anyMatch(p -> p.toString().endsWith(".crdownload"))) {
                return Optional.empty();
            }
            for (Path p : all) {
                if (p.toString().endsWith(".har") && Files.size(p) > 0) {
                    return Optional.of(p);
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The number of the newest exchange the tap has seen, as its inspector answers it (0 before the first). */
    private static long newestExchange() throws Exception {
        JsonNode rows = WireJson.mapper().readTree(HTTP.send(HttpRequest.newBuilder(inspector.url().resolve("/rows")).build(),
                HttpResponse.BodyHandlers.ofString()).body()).path("rows");
        return rows.isEmpty() ? 0 : rows.get(0).path("n").asLong();
    }

    /** The number of the newest exchange listed, 0 when none is. */
    private static long newestListed() {
        List<WebElement> rows = rows();
        return rows.isEmpty() ? 0 : Long.parseLong(rows.getFirst().getAttribute("data-exchange"));
    }

    private static List<WebElement> rows() {
        return chrome.findElements(By.cssSelector("#exchanges tbody tr"));
    }

    private static List<String> states() {
        return chrome.findElements(By.cssSelector("#task-detail .timeline .state")).stream()
                .map(e -> e.getAttribute("data-state")).toList();
    }

    private static void view(String name) {
        chrome.findElement(By.cssSelector("nav button[data-view='" + name + "']")).click();
        waitFor(() -> chrome.findElement(By.id("view-" + name)).isDisplayed());
    }

    /** A JSON-RPC request through the tap; returns the whole answer (a stream's too). */
    private static String send(String method, String text, boolean versioned, String authorization) throws Exception {
        return send(method, text, versioned, authorization, null);
    }

    /** As above, the message in the context named, when one is. */
    private static String send(String method, String text, boolean versioned, String authorization, String contextId)
            throws Exception {
        String params = text == null ? "{\"id\":\"no-such-task\"}"
                : "{\"message\":{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\","
                + (contextId == null ? "" : "\"contextId\":\"" + contextId + "\",")
                + "\"parts\":[{\"text\":\"" + text + "\"}]}}";
        HttpRequest.Builder request = HttpRequest.newBuilder(tap.url())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"" + method
                        + "\",\"params\":" + params + "}"));
        if (versioned) {
            request.header("A2A-Version", "1.0");
        }
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The id the pattern finds in an answer. */
    private static String found(Pattern id, String answer) {
        Matcher m = id.matcher(answer);
        assertThat(m.find()).as("%s in %s", id, answer).isTrue();
        return m.group(1);
    }

    /** Opens a list's view ("tasks", "contexts") and picks the item, once it is listed. */
    private static void pick(String view, String id) {
        view(view);
        click(By.cssSelector("#" + view.substring(0, view.length() - 1) + "-list li[data-id='" + id + "']"));
    }

    /** Clicks the element once it is there; a list drawn again meanwhile is looked up again. */
    private static void click(By element) {
        waitFor(() -> {
            chrome.findElement(element).click();
            return true;
        });
    }

    private static void waitFor(BooleanSupplier condition) {
        // The page redraws a view whole, so an element read a moment ago may have been replaced.
        new WebDriverWait(chrome, WAIT).ignoring(StaleElementReferenceException.class).until(d -> condition.getAsBoolean());
    }

    private static void screenshot(String name) throws IOException {
        String dir = System.getProperty("legate.screenshots");
        if (dir != null) {
            Path target = Path.of(dir).resolve(name + ".png");
            Files.createDirectories(target.getParent());
            Files.write(target, chrome.getScreenshotAs(OutputType.BYTES));
        }
    }
}
