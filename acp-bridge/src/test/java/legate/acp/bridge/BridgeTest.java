package legate.acp.bridge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import legate.a2a.model.signature.CardSigningKey;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.a2a.server.edge.TlsIdentity;
import legate.a2a.server.task.InMemoryTaskStore;
import legate.acp.FakeAgents;
import legate.acp.ProcessAssertions;
import legate.acp.adapter.AdapterConfig;
import legate.acp.adapter.AdapterStartFailed;
import legate.acp.adapter.Backend;
import legate.acp.adapter.BackendChoice;
import legate.acp.adapter.ConversationRecord;
import legate.acp.connection.AdapterCommand;
import legate.acp.connection.ProcessLauncher;
import legate.acp.log.BridgeLogs;
import legate.testsupport.OwnThreads;
import legate.testsupport.RawHttp;
import legate.testsupport.TestPki;
import legate.wire.pem.PemFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge as {@code legate bridge} runs it, in process: created from its config, started on port
 * 0 with {@code FakeAcpAgent} behind it, spoken to in A2A over a real socket, and stopped.
 */
class BridgeTest {
    private static final Pattern PIDS = Pattern.compile("\"text\":\"(\\d+) -1\"");
    private static final Pattern CONTEXT_ID = Pattern.compile("\"contextId\":\"([^\"]+)\"");

    @TempDir
    Path dir;
    private final HttpClient http = HttpClient.newHttpClient();

    private BridgeConfig config(BackendChoice agent) {
        AdapterConfig adapters = new AdapterConfig(dir.resolve("sandboxes"), null, Duration.ofMinutes(5),
                Duration.ofSeconds(20), Duration.ofMillis(300), AdapterConfig.DEFAULT_MAX_LINE_CHARS);
        return new BridgeConfig(ServerConfig.loopback(0), null, null, agent, adapters, false, dir.resolve("logs"),
                BridgeLogs.DEFAULT_MAX_BYTES, BridgeLogs.DEFAULT_MAX_FILES, dir);
    }

    /** The fake agent as an ACP_AGENT_CMD line, each word quoted, in its supervised mode {@code default}. */
    private static BackendChoice fakeAgent() {
        String line = FakeAgents.command().argv().stream().map(w -> "'" + w + "'").collect(Collectors.joining(" "));
        return BackendChoice.commandLine(line, "default");
    }

    private HttpResponse<String> card(int port) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/.well-known/agent-card.json"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String send(int port, String text) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\","
                        + "\"params\":{\"message\":{\"messageId\":\"m-" + text.hashCode() + "\",\"role\":\"ROLE_USER\","
                        + "\"parts\":[{\"text\":\"" + text + "\"}]}}}"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    // DEFECT (issue 30, defect 3): a web page that pointed its own name at 127.0.0.1 ran a prompt
    // on the bridge (Claude Code or Codex behind it) through the visitor's browser. The bridge serves
    // the same server, so it answers only the names it is known by (README "Security").
    @Test
    void aRebindingHostIsRefusedAndNoPromptReachesTheAgent() throws Exception {
        Bridge bridge = Bridge.create(config(fakeAgent()), ProcessLauncher.system(), Clock.systemUTC());
        int port = bridge.start();
        try {
            RawHttp.Answer refused = RawHttp.postJson(port, "/", "rebind.attacker.example:" + port, null,
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
                            + "{\"messageId\":\"m-rebind\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"pids\"}]}}}");
            RawHttp.Answer crossOrigin = RawHttp.postJson(port, "/", "127.0.0.1:" + port, "http://evil.example",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
                            + "{\"messageId\":\"m-evil\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"pids\"}]}}}");
            RawHttp.Answer listed = RawHttp.get(port, "/v1/tasks", "127.0.0.1:" + port, null);

            assertThat(refused.status()).isEqualTo(421);
            assertThat(refused.body()).contains("ALLOWED_HOSTS").doesNotContain("TASK_STATE");
            assertThat(crossOrigin.status()).isEqualTo(403);
            assertThat(crossOrigin.body()).contains("CORS_ORIGINS");
            assertThat(listed.status()).isEqualTo(200);
            assertThat(listed.body()).as("no task was made").doesNotContain("TASK_STATE");
            assertThat(send(port, "pids")).as("a loopback client is still served").contains("TASK_STATE_COMPLETED");
        } finally {
            bridge.stop();
        }
    }

    @Test
    void startsOnAFreePortServesATaskAndStopsItsAgentsBeforeItsServer() throws Exception {
        StopHoldingLauncher launcher = new StopHoldingLauncher();
        Bridge bridge = Bridge.create(config(fakeAgent()), launcher, Clock.systemUTC());
        int port = bridge.start();
        try {
            assertThat(port).isPositive();
            // The card is built from the agent's own answer to initialize, read before the server listened.
            assertThat(card(port).body()).contains("\"name\":\"Fake Agent (via ACP)\"")
                    .contains("\"url\":\"http://127.0.0.1:" + port + "/\"");
            assertThat(bridge.name()).isEqualTo("Fake Agent (via ACP)");
            String task = send(port, "pids");
            assertThat(task).contains("TASK_STATE_COMPLETED");
            Matcher pids = PIDS.matcher(task);
            assertThat(pids.find()).as("the agent's pid in %s", task).isTrue();
            long agentPid = Long.parseLong(pids.group(1));

            launcher.holdStops();
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(bridge::stop, OwnThreads.EACH);
            assertThat(launcher.stopBegun.await(30, TimeUnit.SECONDS)).as("the agent's stop began").isTrue();
            // Agents first, then the server: while an agent is being stopped the server still answers, so a
            // supervisor's SIGKILL after the server's own wait can never find an agent alive.
            assertThat(card(port).statusCode()).isEqualTo(200);
            assertThat(ProcessAssertions.alive(agentPid)).isTrue();
            launcher.releaseStops();
            stopping.get(30, TimeUnit.SECONDS);

            ProcessAssertions.assertGone(agentPid);
            for (Process p : launcher.launched) {
                ProcessAssertions.assertGone(p.pid());
            }
            assertThat(launcher.launched).as("the probe's agent and the conversation's").hasSize(2);
            assertThatThrownBy(() -> card(port)).isInstanceOf(ConnectException.class);
            assertThat(Files.readString(dir.resolve("logs").resolve(BridgeLogs.CALLS))).contains("\"event\":\"adapter.stop\"");
        } finally {
            launcher.releaseStops();
            bridge.stop();
        }
    }

    // README "TLS" and "Signed Agent Cards": the bridge is the same server as legate agent, so with
    // TLS_CERT/TLS_KEY its card says https and with CARD_SIGNING_KEY it carries a signature.
    @Test
    void overTlsTheBridgesCardIsHttpsAndSigned() throws Exception {
        TestPki pki = TestPki.create(dir);
        ServerEdge edge = ServerEdge.PLAIN
                .withTls(TlsIdentity.read(pki.serverChain(), pki.serverKey(), Instant.now()))
                .withCardKey(CardSigningKey.read(pki.privateKey("card", "ec", false)));
        BridgeConfig plain = config(fakeAgent());
        BridgeConfig config = new BridgeConfig(plain.server().withEdge(edge), null, null, plain.agent(), plain.adapters(),
                false, dir.resolve("logs"), BridgeLogs.DEFAULT_MAX_BYTES, BridgeLogs.DEFAULT_MAX_FILES, dir);
        Bridge bridge = Bridge.create(config, ProcessLauncher.system(), Clock.systemUTC());
        int port = bridge.start();
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", PemFile.read(pki.caCert()).certificates().getFirst());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, tmf.getTrustManagers(), null);
            HttpClient https = HttpClient.newBuilder().sslContext(tls).build();

            String card = https.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port
                    + "/.well-known/agent-card.json")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();

            assertThat(card).contains("\"url\":\"https://127.0.0.1:" + port + "/\"").contains("\"signatures\":[{\"protected\"");
        } finally {
            bridge.stop();
        }
    }

    // Issue rule (durable store): the bridge keeps each conversation's ACP session id, root and
    // backend in the task store, so a later agent can load the same session after a restart.
    @Test
    void aConversationsSessionAndRootAreKeptInTheTaskStore() throws Exception {
        InMemoryTaskStore store = new InMemoryTaskStore();
        Bridge bridge = Bridge.create(config(fakeAgent()), store, ProcessLauncher.system(), Clock.systemUTC());
        int port = bridge.start();
        try {
            Matcher context = CONTEXT_ID.matcher(send(port, "echo kept"));
            assertThat(context.find()).isTrue();

            ConversationRecord record = ConversationRecord.fromJson(store.contextState(context.group(1)).orElseThrow());
            assertThat(record.backend()).isEqualTo(Backend.GENERIC);
            assertThat(record.sessionId()).isNotBlank();
            assertThat(Path.of(record.root())).isDirectory().startsWith(dir.resolve("sandboxes").toRealPath());
        } finally {
            bridge.stop();
        }
    }

    @Test
    void anAgentThatCannotStartFailsTheStartBeforeAnythingListens() throws Exception {
        Bridge bridge = Bridge.create(config(BackendChoice.commandLine(dir.resolve("no-such-agent").toString(), null)));
        assertThatThrownBy(bridge::start).isInstanceOf(AdapterStartFailed.class)
                .hasMessageContaining("Cannot start").hasMessageContaining("no-such-agent");
        assertThatThrownBy(bridge::join).isInstanceOf(IllegalStateException.class);
        bridge.stop();
    }

    @Test
    void anUnknownBackendIsRefusedWhenTheBridgeIsCreated() {
        BackendChoice gemini = new BackendChoice("gemini", null, null, null, null, List.of(), "");
        assertThatThrownBy(() -> Bridge.create(config(gemini))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown backend 'gemini'");
    }

    /**
     * Real agents whose stop can be held: once {@link #holdStops()} is called, closing an agent's
     * stdin (the first step of stopping it) reports {@link #stopBegun} and waits for
     * {@link #releaseStops()}. The agent is still alive at that point.
     */
    private static final class StopHoldingLauncher implements ProcessLauncher {
        final List<Process> launched = new CopyOnWriteArrayList<>();
        final CountDownLatch stopBegun = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private volatile boolean holding;

        void holdStops() {
            holding = true;
        }

        void releaseStops() {
            released.countDown();
        }

        @Override
        public Process launch(AdapterCommand command, Path workingDir) throws IOException {
            Process p = ProcessLauncher.system().launch(command, workingDir);
            launched.add(p);
            return new HeldStdin(p);
        }

        private final class HeldStdin extends Process {
            private final Process real;
            private final OutputStream stdin;

            HeldStdin(Process real) {
                this.real = real;
                OutputStream out = real.getOutputStream();
                this.stdin = new OutputStream() {
                    @Override
                    public void write(int b) throws IOException {
                        out.write(b);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        out.write(b, off, len);
                    }

                    @Override
                    public void flush() throws IOException {
                        out.flush();
                    }

                    @Override
                    public void close() throws IOException {
                        if (holding) {
                            stopBegun.countDown();
                            try {
                                released.await(30, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                        out.close();
                    }
                };
            }

            @Override
            public OutputStream getOutputStream() {
                return stdin;
            }

            @Override
            public InputStream getInputStream() {
                return real.getInputStream();
            }

            @Override
            public InputStream getErrorStream() {
                return real.getErrorStream();
            }

            @Override
            public int waitFor() throws InterruptedException {
                return real.waitFor();
            }

            @Override
            public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
                return real.waitFor(timeout, unit);
            }

            @Override
            public int exitValue() {
                return real.exitValue();
            }

            @Override
            public void destroy() {
                real.destroy();
            }

            @Override
            public Process destroyForcibly() {
                real.destroyForcibly();
                return this;
            }

            @Override
            public boolean isAlive() {
                return real.isAlive();
            }

            @Override
            public long pid() {
                return real.pid();
            }

            @Override
            public ProcessHandle toHandle() {
                return real.toHandle();
            }

            @Override
            public CompletableFuture<Process> onExit() {
                return real.onExit().thenApply(p -> this);
            }
        }
    }
}
