package legate.a2a.model.signature;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.List;
import legate.a2a.model.ProtoJson;
import legate.wire.json.WireJson;
import lf.a2a.v1.AgentCapabilities;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentInterface;
import lf.a2a.v1.AgentSkill;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** PROTOCOL (A2A §8.4): a signed card verifies, and any change after signing is caught. */
class CardSignatureTest {

    private static final AgentCard CARD = AgentCard.newBuilder()
            .setName("Revisor").setDescription("Counts words.").setVersion("1.0.0")
            .addSupportedInterfaces(AgentInterface.newBuilder().setUrl("https://127.0.0.1:41241/")
                    .setProtocolBinding("JSONRPC").setProtocolVersion("1.0"))
            .setCapabilities(AgentCapabilities.newBuilder().setStreaming(true).setPushNotifications(false))
            .addDefaultInputModes("text/plain").addDefaultOutputModes("text/plain")
            .addSkills(AgentSkill.newBuilder().setId("text_stats").setName("Text statistics")
                    .setDescription("Words, characters, sentences.").addTags("text"))
            .build();

    private static KeyPair keyPair(String kind) throws Exception {
        return switch (kind) {
            case "ec" -> {
                KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
                g.initialize(new ECGenParameterSpec("secp256r1"));
                yield g.generateKeyPair();
            }
            case "rsa" -> {
                KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
                g.initialize(2048);
                yield g.generateKeyPair();
            }
            default -> KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        };
    }

    private static JsonNode served(AgentCard card) throws Exception {
        return WireJson.mapper().readTree(ProtoJson.print(card));
    }

    @ParameterizedTest
    @ValueSource(strings = {"ec", "ed25519", "rsa"})
    void aSignedCardVerifiesWithItsPublishedKey(String kind) throws Exception {
        KeyPair pair = keyPair(kind);
        CardSigningKey key = CardSigningKey.of(pair.getPrivate(), pair.getPublic());
        JsonNode card = served(key.sign(CARD));

        CardVerdict verdict = new CardVerifier(List.of(key.publicJwk())).verify(card);

        assertThat(verdict).isEqualTo(new CardVerdict.Verified(key.keyId(),
                PublicJwk.algorithm(pair.getPublic()).getName()));
        JsonNode header = WireJson.mapper().readTree(new Base64URL(card.at("/signatures/0/protected").asText()).decodeToString());
        assertThat(header.path("kid").asText()).isEqualTo(key.keyId());
        assertThat(header.path("typ").asText()).isEqualTo("JOSE");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/name", "/description", "/supportedInterfaces/0/url", "/skills/0/id"})
    void aCardChangedAfterSigningIsRefused(String field) throws Exception {
        KeyPair pair = keyPair("ec");
        CardSigningKey key = CardSigningKey.of(pair.getPrivate(), pair.getPublic());
        ObjectNode card = (ObjectNode) served(key.sign(CARD));
        JsonNode parent = card.at(field.substring(0, field.lastIndexOf('/')));
        ((ObjectNode) (parent.isMissingNode() ? card : parent)).put(field.substring(field.lastIndexOf('/') + 1), "https://evil.example/");

        CardVerdict verdict = new CardVerifier(List.of(key.publicJwk())).verify(card);

        assertThat(verdict).isInstanceOf(CardVerdict.Refused.class);
        assertThat(verdict.describe()).contains("changed after it was signed");
    }

    @Test
    void aFieldAddedAfterSigningIsRefusedToo() throws Exception {
        KeyPair pair = keyPair("ed25519");
        CardSigningKey key = CardSigningKey.of(pair.getPrivate(), pair.getPublic());
        ObjectNode card = (ObjectNode) served(key.sign(CARD));
        card.put("iconUrl", "https://evil.example/icon.png");

        assertThat(new CardVerifier(List.of(key.publicJwk())).verify(card)).isInstanceOf(CardVerdict.Refused.class);
    }

    @Test
    void anUnsignedCardIsRefused() throws Exception {
        KeyPair pair = keyPair("ec");
        CardSigningKey key = CardSigningKey.of(pair.getPrivate(), pair.getPublic());

        assertThat(new CardVerifier(List.of(key.publicJwk())).verify(served(CARD)).describe())
                .contains("not signed");
    }

    @Test
    void aCardSignedByAnotherKeyIsRefusedNamingItsKid() throws Exception {
        KeyPair signing = keyPair("ec");
        KeyPair trusted = keyPair("ec");
        CardSigningKey key = CardSigningKey.of(signing.getPrivate(), signing.getPublic());
        JsonNode card = served(key.sign(CARD));

        CardVerdict verdict = new CardVerifier(List.of(PublicJwk.of(trusted.getPublic()))).verify(card);

        assertThat(verdict.describe()).contains(key.keyId()).contains("not among the trusted keys");
    }

    /** A key given alone has no kid to match: it is tried, and a wrong one fails on the content. */
    @Test
    void aKeyGivenAloneIsTriedWhateverTheKid() throws Exception {
        KeyPair pair = keyPair("rsa");
        CardSigningKey key = CardSigningKey.of(pair.getPrivate(), pair.getPublic());
        JsonNode card = served(key.sign(CARD));
        JWK alone = new RSAKey.Builder((RSAPublicKey) pair.getPublic()).build();

        assertThat(new CardVerifier(List.of(alone)).verify(card)).isInstanceOf(CardVerdict.Verified.class);
    }

    /** An unsigned JWS ({@code alg: none}) in place of a signature is not a signature. */
    @Test
    void anAlgNoneSignatureIsRefused() throws Exception {
        KeyPair pair = keyPair("ec");
        CardSigningKey key = CardSigningKey.of(pair.getPrivate(), pair.getPublic());
        ObjectNode card = (ObjectNode) served(CARD);
        ArrayNode signatures = card.putArray("signatures");
        signatures.addObject()
                .put("protected", Base64URL.encode(("{\"alg\":\"none\",\"kid\":\"" + key.keyId() + "\"}")
                        .getBytes(StandardCharsets.UTF_8)).toString())
                .put("signature", "");

        CardVerdict verdict = new CardVerifier(List.of(key.publicJwk())).verify(card);

        assertThat(verdict).isInstanceOf(CardVerdict.Refused.class);
        assertThat(verdict.describe()).contains("not a JWS header");
    }
}
