package legate.a2a.model.signature;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDSAVerifier;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.util.Base64URL;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.EdECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.text.ParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks an Agent Card's {@code signatures} against keys the caller trusts.
 *
 * <p>PROTOCOL (A2A §8.4): the verifier rebuilds the payload from the card ({@link CardPayload}) and
 * accepts the card when at least one signature verifies with a trusted key. A key found in a JWKS
 * must have the {@code kid} the protected header names; a key given alone (a PEM public key, no
 * {@code kid}) is tried on every signature. An unsigned card is refused: whoever asks for
 * verification asked for a signed card. The unprotected {@code header} is not signed and is ignored.
 */
public final class CardVerifier {
    private final List<JWK> trusted;

    /** @param trusted the keys to accept, each with its kid or (a key given alone) without one */
    public CardVerifier(List<JWK> trusted) {
        if (trusted.isEmpty()) {
            throw new IllegalArgumentException("no trusted key to verify a card with");
        }
        this.trusted = List.copyOf(trusted);
    }

    /** Checks the card as received: its JSON object, signatures included. */
    public CardVerdict verify(JsonNode card) {
        JsonNode signatures = card.path("signatures");
        if (!signatures.isArray() || signatures.isEmpty()) {
            return new CardVerdict.Refused("the card is not signed (it has no signatures)");
        }
        Base64URL payload = Base64URL.encode(CardPayload.of(card));
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < signatures.size(); i++) {
            JsonNode entry = signatures.get(i);
            String protectedHeader = entry.path("protected").asText("");
            String signature = entry.path("signature").asText("");
            String outcome;
            try {
                JWSObject jws = new JWSObject(new Base64URL(protectedHeader), new Payload(payload),
                        new Base64URL(signature));
                outcome = check(jws);
            } catch (ParseException e) {
                outcome = "its protected header is not a JWS header (" + e.getMessage() + ")";
            }
            if (outcome == null) {
                JWSHeader header = parsedHeader(protectedHeader);
                return new CardVerdict.Verified(header.getKeyID(), header.getAlgorithm().getName());
            }
            failures.add("signature " + (i + 1) + " " + outcome);
        }
        return new CardVerdict.Refused(String.join("; ", failures));
    }

    /** Null when {@code jws} verifies with a trusted key; otherwise why not. */
    private String check(JWSObject jws) {
        JWSHeader header = jws.getHeader();
        String kid = header.getKeyID();
        if (kid == null) {
            return "names no kid in its protected header";
        }
        if (header.getType() != null && !JOSEObjectType.JOSE.equals(header.getType())) {
            return "has typ " + header.getType() + ", not JOSE";
        }
        if (header.getCriticalParams() != null && !header.getCriticalParams().isEmpty()) {
            return "has critical header parameters this verifier does not know: " + header.getCriticalParams();
        }
        List<JWK> keys = trusted.stream().filter(k -> k.getKeyID() == null || k.getKeyID().equals(kid)).toList();
        if (keys.isEmpty()) {
            return "is by key " + kid + ", which is not among the trusted keys";
        }
        String last = null;
        for (JWK key : keys) {
            try {
                PublicKey publicKey = PublicJwk.toPublicKey(key);
                if (!PublicJwk.algorithm(publicKey).equals(header.getAlgorithm())) {
                    last = "uses " + header.getAlgorithm() + ", which the trusted " + key.getKeyType() + " key does not sign with";
                    continue;
                }
                if (jws.verify(verifier(publicKey))) {
                    return null;
                }
                last = "does not match the card's content (the card was changed after it was signed, or signed by another key)";
            } catch (JOSEException | IllegalArgumentException e) {
                last = "cannot be checked with key " + kid + ": " + e.getMessage();
            }
        }
        return last;
    }

    /** A verifier of JWS signatures made with {@code key} (EC P-256, RSA, Ed25519): what checks a card or a push JWT. */
    public static JWSVerifier verifier(PublicKey key) throws JOSEException {
        return switch (key) {
            case ECPublicKey ec -> new ECDSAVerifier(ec);
            case RSAPublicKey rsa -> new RSASSAVerifier(rsa);
            case EdECPublicKey ed -> Ed25519Jws.verifier(ed);
            default -> throw new JOSEException("no verifier for a " + key.getAlgorithm() + " key");
        };
    }

    private static JWSHeader parsedHeader(String protectedHeader) {
        try {
            return JWSHeader.parse(new Base64URL(protectedHeader));
        } catch (ParseException e) {
            throw new IllegalStateException("a header that verified no longer parses", e);
        }
    }
}
