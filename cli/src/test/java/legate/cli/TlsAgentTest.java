package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import legate.cli.ClientCommandTest.Run;
import legate.testsupport.ChildCommand;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.RunningChild;
import legate.testsupport.TestPki;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code legate agent} with TLS_CERT and TLS_KEY as a real process, and {@code legate client
 * --ca-cert} dialing it (README "TLS"): the card's URL is https, a task runs, a client without the
 * CA is refused, and an unusable key or half a setting stops the agent at start, naming why.
 */
class TlsAgentTest {
    private static final Pattern LISTENING = Pattern.compile("listening on https://127\\.0\\.0\\.1:(\\d+)/");
    private static final Pattern TAP_LISTENING = Pattern.compile("legate tap: (http://127\\.0\\.0\\.1:\\d+/) -> https?://");
    private static final Duration START_LIMIT = Duration.ofSeconds(30);
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    static Path dir;
    private static TestPki pki;

    @BeforeAll
    static void pki() {
        pki = TestPki.create(dir);
    }

    private static ChildCommand agent(Map<String, String> env) {
        List<String> argv = new ArrayList<>(List.of("agent"));
        return ChildCommand.java(Legate.class, argv.toArray(String[]::new)).in(dir)
                .without("HOST", "PUBLIC_URL", "AGENT_NAME", "DATA_DIR", "DATABASE_URL", "TLS_CERT", "TLS_KEY",
                        "CARD_SIGNING_KEY", "CORS_ORIGINS", "A2A_CLIENT_CA", "A2A_CLIENT_CRL", "A2A_TOKENS_FILE")
                .env(Map.of("PORT", "0", "STEP_DELAY_MS", "0", "TASK_STORE", "memory"))
                .env(env);
    }

    @Test
    void theAgentServesHttpsAndTheClientDialsItWithTheTestCa() {
        RunningChild child = cleanup.register(agent(Map.of("TLS_CERT", pki.serverChain().toString(),
                "TLS_KEY", pki.serverKey().toString())).start());
        Matcher m = child.awaitLine(LISTENING, START_LIMIT);
        String url = "https://127.0.0.1:" + m.group(1);

        Run card = ClientCommandTest.legate(url, "client", "--ca-cert", pki.caCert().toString(), "card");
        Run ask = ClientCommandTest.legate(url, "client", "--ca-cert", pki.caCert().toString(), "ask", "Count these words.");
        Run untrusted = ClientCommandTest.legate(url, "client", "card");

        assertThat(card.exit()).as(card.err()).isZero();
        assertThat(card.out()).contains("JSONRPC 1.0 at " + url + "/");
        assertThat(ask.exit()).as(ask.err()).isZero();
        assertThat(ask.out()).contains("completed");
        assertThat(untrusted.exit()).isEqualTo(4);
    }

    // README "Authentication": with A2A_CLIENT_CA the agent asks callers for a client certificate
    // (mutual TLS); legate client presents one with --client-cert/--client-key, and without one is
    // told what the card asks for and refused (exit 3).
    @Test
    void anAgentAskingForClientCertificatesServesTheClientThatPresentsOne() {
        TestPki.CertificateFiles alice = pki.clientCertificate("alice", "alice");
        RunningChild child = cleanup.register(agent(Map.of("TLS_CERT", pki.serverChain().toString(),
                "TLS_KEY", pki.serverKey().toString(), "A2A_CLIENT_CA", pki.caCert().toString())).start());
        String url = "https://127.0.0.1:" + child.awaitLine(LISTENING, START_LIMIT).group(1);

        Run ask = ClientCommandTest.legate(url, "client", "--ca-cert", pki.caCert().toString(), "--client-cert",
                alice.certificate().toString(), "--client-key", alice.key().toString(), "ask", "Count these words.");
        Run without = ClientCommandTest.legate(url, "client", "--ca-cert", pki.caCert().toString(), "ask", "Hello.");
        Run half = ClientCommandTest.legate(url, "client", "--client-cert", alice.certificate().toString(), "card");

        assertThat(ask.exit()).as(ask.err()).isZero();
        assertThat(ask.out()).contains("completed");
        assertThat(without.exit()).as(without.err()).isEqualTo(3);
        assertThat(without.err()).contains("asks for mtls").contains("--client-cert");
        assertThat(half.exit()).isEqualTo(2);
        assertThat(half.err()).contains("--client-cert and --client-key");
    }

    // README "The wire tap": the tap dials an https agent with a private CA, and presents a client
    // certificate to one that asks for it (mutual TLS); its clients speak plain HTTP to it. Without
    // the certificate the agent's own refusal (401) passes through; without the CA the tap answers
    // 502 naming the target; TLS settings for an http target are a usage error.
    @Test
    void theTapDialsAnAgentAskingForClientCertificatesWithTheCertificateItWasGiven() throws Exception {
        TestPki.CertificateFiles tapCert = pki.clientCertificate("tap", "tap-operator");
        RunningChild agent = cleanup.register(agent(Map.of("TLS_CERT", pki.serverChain().toString(),
                "TLS_KEY", pki.serverKey().toString(), "A2A_CLIENT_CA", pki.caCert().toString())).start());
        String target = "https://127.0.0.1:" + agent.awaitLine(LISTENING, START_LIMIT).group(1);

        RunningChild withCert = cleanup.register(tap(target, "--ca-cert", pki.caCert().toString(),
                "--client-cert", tapCert.certificate().toString(), "--client-key", tapCert.key().toString()).start());
        URI tapUrl = URI.create(withCert.awaitLine(TAP_LISTENING, START_LIMIT).group(1));
        RunningChild caOnly = cleanup.register(tap(target, "--ca-cert", pki.caCert().toString()).start());
        URI caOnlyUrl = URI.create(caOnly.awaitLine(TAP_LISTENING, START_LIMIT).group(1));
        RunningChild jdkTrust = cleanup.register(tap(target).start());
        URI jdkTrustUrl = URI.create(jdkTrust.awaitLine(TAP_LISTENING, START_LIMIT).group(1));

        HttpResponse<String> served = sendMessage(tapUrl);
        HttpResponse<String> noCertificate = sendMessage(caOnlyUrl);
        HttpResponse<String> untrusted = sendMessage(jdkTrustUrl);

        assertThat(served.statusCode()).as(served.body()).isEqualTo(200);
        assertThat(served.body()).contains("TASK_STATE_COMPLETED");
        assertThat(withCert.awaitLine(Pattern.compile("\\[#1\\] <- 200"), START_LIMIT)).isNotNull();
        assertThat(withCert.output()).contains("as the holder of " + tapCert.certificate());
        assertThat(noCertificate.statusCode()).as(noCertificate.body()).isEqualTo(401);
        assertThat(untrusted.statusCode()).isEqualTo(502);
        assertThat(untrusted.body()).contains("the agent at " + target + " is not reachable");

        ChildRun httpTarget = tap("http://127.0.0.1:9", "--ca-cert", pki.caCert().toString()).run(START_LIMIT);
        assertThat(httpTarget.exitCode()).isEqualTo(2);
        assertThat(httpTarget.stderr()).contains("is for an https target").doesNotContain("Exception");
    }

    private static ChildCommand tap(String target, String... tls) {
        List<String> argv = new ArrayList<>(List.of("tap", "--port", "0", "--color", "never", "--target", target));
        argv.addAll(List.of(tls));
        return ChildCommand.java(Legate.class, argv.toArray(String[]::new)).in(dir)
                .without("TAP_HOST", "TAP_PORT", "TARGET_URL", "TAP_LOG", "TAP_WEB", "TAP_GRPC_TARGET",
                        "A2A_CA_CERT", "A2A_CLIENT_CERT", "A2A_CLIENT_KEY");
    }

    private static HttpResponse<String> sendMessage(URI tap) throws Exception {
        String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
                + "{\"messageId\":\"m-" + System.nanoTime() + "\",\"role\":\"ROLE_USER\","
                + "\"parts\":[{\"text\":\"Count these words.\"}]}}}";
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(tap)
                .header("Content-Type", "application/json").header("A2A-Version", "1.0")
                .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    // README "Authentication": with A2A_CLIENT_CRL a certificate its authority revoked is refused in
    // the handshake (legate client: the agent cannot be reached, exit 4) while the others pass;
    // the lists without the authorities they revoke for are a usage error.
    @Test
    void anAgentWithRevocationListsRefusesARevokedCertificate() {
        TestPki.CertificateFiles carol = pki.clientCertificate("carol", "carol");
        TestPki.CertificateFiles mallory = pki.clientCertificate("mallory", "mallory");
        Path crl = pki.revoke(mallory);
        RunningChild child = cleanup.register(agent(Map.of("TLS_CERT", pki.serverChain().toString(),
                "TLS_KEY", pki.serverKey().toString(), "A2A_CLIENT_CA", pki.caCert().toString(),
                "A2A_CLIENT_CRL", crl.toString())).start());
        String url = "https://127.0.0.1:" + child.awaitLine(LISTENING, START_LIMIT).group(1);

        Run carolAsks = ClientCommandTest.legate(url, "client", "--ca-cert", pki.caCert().toString(), "--client-cert",
                carol.certificate().toString(), "--client-key", carol.key().toString(), "ask", "Count these words.");
        Run malloryAsks = ClientCommandTest.legate(url, "client", "--ca-cert", pki.caCert().toString(), "--client-cert",
                mallory.certificate().toString(), "--client-key", mallory.key().toString(), "ask", "Let me in.");
        ChildRun withoutCa = agent(Map.of("A2A_CLIENT_CRL", crl.toString())).run(START_LIMIT);

        assertThat(carolAsks.exit()).as(carolAsks.err()).isZero();
        assertThat(malloryAsks.exit()).as(malloryAsks.err()).isEqualTo(4);
        assertThat(withoutCa.exitCode()).isEqualTo(2);
        assertThat(withoutCa.stderr()).contains("A2A_CLIENT_CRL needs A2A_CLIENT_CA").doesNotContain("Exception");
    }

    // A client certificate is presented in the TLS handshake: mutual TLS without TLS cannot start.
    @Test
    void clientCertificatesWithoutTlsAreAUsageError() {
        ChildRun run = agent(Map.of("A2A_CLIENT_CA", pki.caCert().toString())).run(START_LIMIT);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("A2A_CLIENT_CA needs TLS_CERT and TLS_KEY").doesNotContain("Exception");
    }

    @Test
    void theStartUpTrainingRunSucceedsWithTlsConfigured() {
        // bin/legate records the start-up archive with this run, in the user's environment, whose TLS
        // settings it must neither trip over nor use (it reads no setting: StartupTrainingIsolationTest).
        ChildRun run = ChildCommand.java(Legate.class, "agent", "--host", "127.0.0.1", "--port", "0",
                        "--step-delay-ms", "0", "--start-cache-training").in(dir)
                .without("HOST", "PUBLIC_URL", "AGENT_NAME", "DATA_DIR", "DATABASE_URL", "CARD_SIGNING_KEY", "CORS_ORIGINS")
                .env(Map.of("TASK_STORE", "memory", "TLS_CERT", pki.serverChain().toString(),
                        "TLS_KEY", pki.serverKey().toString()))
                .run(START_LIMIT);
        assertThat(run.exitCode()).as(run.output()).isZero();
    }

    @Test
    void aKeyThatIsNotTheCertificatesStopsTheAgentAtStart() {
        Path other = pki.privateKey("other", "rsa", true);

        ChildRun run = agent(Map.of("TLS_CERT", pki.serverChain().toString(), "TLS_KEY", other.toString()))
                .run(START_LIMIT);

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.stderr()).contains("legate agent: TLS_CERT/TLS_KEY: ").contains("does not belong to the first certificate")
                .doesNotContain("Exception");
    }

    @Test
    void aCertificateWithoutItsKeyIsAUsageError() {
        ChildRun run = agent(Map.of("TLS_CERT", pki.serverChain().toString())).run(START_LIMIT);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("TLS_CERT and TLS_KEY go together");
    }

    @Test
    void anUnreadableSigningKeyStopsTheAgentAtStart() {
        ChildRun run = agent(Map.of("CARD_SIGNING_KEY", pki.caCert().toString())).run(START_LIMIT);

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.stderr()).contains("CARD_SIGNING_KEY: ").contains("holds no private key");
    }

    @Test
    void aWildcardCorsOriginIsAUsageError() {
        ChildRun run = agent(Map.of("CORS_ORIGINS", "*")).run(START_LIMIT);

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.stderr()).contains("CORS_ORIGINS: ").contains("no wildcard");
    }
}
