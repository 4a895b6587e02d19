package legate.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import legate.a2a.model.signature.CardSigningKey;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.cli.ClientCommandTest.Run;
import legate.revisor.RevisorCard;
import legate.revisor.RevisorExecutor;
import legate.testsupport.Cleanup;
import legate.testsupport.ScriptedPeer;
import legate.testsupport.TestPki;
import legate.wire.json.WireJson;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code legate client --trust} and {@code card --verify} through the real command (README
 * "Signed Agent Cards"): a card signed by a trusted key is used, and one changed after signing, or
 * not signed at all, is refused with exit 4 naming why, before anything is sent to the agent.
 */
class SignedCardClientTest {
    @RegisterExtension
    static final Cleanup cleanup = new Cleanup();
    @TempDir
    static Path dir;
    private static TestPki pki;
    private static Path ecKey;
    private static String signedUrl;
    private static Path jwksFile;

    @BeforeAll
    static void start() throws Exception {
        pki = TestPki.create(dir);
        ecKey = pki.privateKey("card-ec", "ec", false);
        signedUrl = signedRevisor(CardSigningKey.read(ecKey));
        jwksFile = dir.resolve("jwks.json");
        Files.writeString(jwksFile, get(URI.create(signedUrl + "/.well-known/jwks.json")));
    }

    private static String signedRevisor(CardSigningKey key) throws Exception {
        AgentServer server = AgentServer.create(ServerConfig.loopback(0).withEdge(ServerEdge.PLAIN.withCardKey(key)),
                port -> RevisorCard.build(null, "http://127.0.0.1:" + port + "/"), new RevisorExecutor(Duration.ZERO));
        return "http://127.0.0.1:" + cleanup.start("signed Revisor", server, AgentServer::start, AgentServer::openStreams);
    }

    private static String get(URI uri) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** Every key kind a card may be signed with, trusted as the PEM public key a person is handed. */
    @ParameterizedTest
    @ValueSource(strings = {"ec", "ed25519", "rsa"})
    void aCardSignedWithEachKindOfKeyVerifies(String kind) throws Exception {
        Path key = pki.privateKey("kind-" + kind, kind, kind.equals("rsa"));
        String url = signedRevisor(CardSigningKey.read(key));

        Run run = ClientCommandTest.legate(url, "client", "--trust", pki.publicKey(key, "kind-" + kind).toString(),
                "card", "--verify");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("  signature verified (" + (kind.equals("ec") ? "ES256"
                : kind.equals("rsa") ? "RS256" : "EdDSA"));
    }

    @Test
    void aJwksUrlOrFileIsTrustedAndATaskRuns() {
        Run byUrl = ClientCommandTest.legate(signedUrl, "client", "--trust", signedUrl + "/.well-known/jwks.json",
                "card", "--verify");
        Run ask = ClientCommandTest.legate(signedUrl, "client", "--trust", jwksFile.toString(), "ask", "Count these words.");

        assertThat(byUrl.exit()).as(byUrl.err()).isZero();
        assertThat(byUrl.out()).contains("signature verified (ES256, key ");
        assertThat(ask.exit()).as(ask.err()).isZero();
        assertThat(ask.out()).contains("completed");
    }

    /** Without --trust, --verify checks the card against the agent's own JWKS, and says what that proves. */
    @Test
    void verifyWithoutTrustUsesTheAgentsOwnJwksAndSaysSo() {
        Run run = ClientCommandTest.legate(signedUrl, "client", "card", "--verify");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("signature verified").contains("the agent's own JWKS");
    }

    /** PROTOCOL (A2A §8.4): any field changed after signing fails verification; nothing is sent to that agent. */
    @Test
    void aTamperedCardIsRefusedWithExit4NamingWhyAndNothingIsSent() throws Exception {
        ObjectNode card = (ObjectNode) WireJson.mapper().readTree(get(URI.create(signedUrl + "/.well-known/agent-card.json")));
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) -> {
            ((ObjectNode) card.withArray("supportedInterfaces").get(0)).put("url", self.url().toString());
            ScriptedPeer.respond(out, 200, "application/json", WireJson.write(card));
        })) {
            Run card4 = ClientCommandTest.legate(peer.url().toString(), "client", "--trust", jwksFile.toString(), "card");
            Run ask = ClientCommandTest.legate(peer.url().toString(), "client", "--trust", jwksFile.toString(), "ask", "hi");

            assertThat(card4.exit()).isEqualTo(4);
            assertThat(card4.err()).contains("is not trusted: signature refused")
                    .contains("changed after it was signed");
            assertThat(ask.exit()).isEqualTo(4);
            assertThat(peer.takeReceived()).allSatisfy(r -> assertThat(r.method()).isEqualTo("GET"));
        }
    }

    @Test
    void anUnsignedCardIsRefusedWhenATrustedKeyIsGiven() throws Exception {
        try (ScriptedPeer peer = new ScriptedPeer((request, out, self) ->
                ScriptedPeer.respond(out, 200, "application/json", ScriptedPeer.cardJson(self.url())))) {
            Run run = ClientCommandTest.legate(peer.url().toString(), "client", "--trust", jwksFile.toString(), "card");

            assertThat(run.exit()).isEqualTo(4);
            assertThat(run.err()).contains("the card is not signed");
        }
    }

    @Test
    void aTrustSourceThatIsNoKeyIsAUsageError() throws Exception {
        Path notAKey = dir.resolve("not-a-key.json");
        Files.writeString(notAKey, "{\"hello\":1}");

        Run run = ClientCommandTest.legate(signedUrl, "client", "--trust", notAKey.toString(), "card");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).contains("not-a-key.json").contains("is not a PEM public key, a JWK or a JWKS");
    }
}
