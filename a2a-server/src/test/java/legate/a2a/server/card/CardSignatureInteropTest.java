package legate.a2a.server.card;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.jwk.JWK;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import legate.a2a.model.signature.CardSigningKey;
import legate.a2a.model.signature.CardVerdict;
import legate.a2a.model.signature.CardVerifier;
import legate.a2a.server.AgentExecutor;
import legate.a2a.server.AgentServer;
import legate.a2a.server.ServerConfig;
import legate.a2a.server.ServerEdge;
import legate.testsupport.ChildRun;
import legate.testsupport.Cleanup;
import legate.testsupport.NodeScript;
import legate.testsupport.TestPki;
import legate.wire.json.WireJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Legate's signed card as the official JavaScript SDK sees it (interop/card-signature-check.mjs,
 * @a2a-js/sdk 1.2.0 verifyAgentCardSignature): it verifies with the key Legate publishes, for each
 * kind of key, and the SDK refuses it once changed; and the other way round, a card the SDK signed
 * (interop/card-sign.mjs) verified by Legate's verifier. A missing Node.js fails this test.
 */
class CardSignatureInteropTest {
    @RegisterExtension
    final Cleanup cleanup = new Cleanup();
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"ec", "ed25519", "rsa"})
    void theOfficialSdkVerifiesLegatesSignedCard(String kind) throws Exception {
        CardSigningKey key = CardSigningKey.read(TestPki.create(dir).privateKey("card", kind, false));
        AgentExecutor none = (ctx, events) -> events.task(ctx.initialTask());
        AgentServer server = AgentServer.create(ServerConfig.loopback(0).withEdge(ServerEdge.PLAIN.withCardKey(key)),
                port -> LegateCards.jsonRpc("Signed", "A card signed by Legate.", "http://127.0.0.1:" + port + "/")
                        .setVersion("1.0.0").addDefaultInputModes("text/plain").addDefaultOutputModes("text/plain").build(),
                none);
        int port = cleanup.start("the signed agent", server, AgentServer::start, AgentServer::openStreams);

        ChildRun run = NodeScript.test("card-signature-check.mjs").env("A2A_URL", "http://127.0.0.1:" + port)
                .run(Duration.ofSeconds(60));

        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        assertThat(run.stdout()).contains("# pass 3", "# fail 0");
    }

    @Test
    void aCardTheOfficialSdkSignedVerifiesWithLegatesVerifier() throws Exception {
        ChildRun run = NodeScript.of("card-sign.mjs").run(Duration.ofSeconds(60));
        assertThat(run.exitCode()).as("node exit status; output:\n%s", run.output()).isZero();
        JsonNode out = WireJson.mapper().readTree(run.stdout());
        CardVerifier verifier = new CardVerifier(List.of(JWK.parse(WireJson.write(out.get("jwk")))));
        ObjectNode tampered = out.get("card").deepCopy();
        tampered.put("version", "1.2.1");

        assertThat(verifier.verify(out.get("card"))).isEqualTo(new CardVerdict.Verified("js-sdk-key", "ES256"));
        assertThat(verifier.verify(tampered).describe()).contains("changed after it was signed");
    }
}
