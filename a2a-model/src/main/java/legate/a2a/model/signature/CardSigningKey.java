package legate.a2a.model.signature;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSObject;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.Payload;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.ECPrivateKey;
import legate.wire.pem.PemException;
import legate.wire.pem.PemFile;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.AgentCardSignature;

/**
 * The private key an agent signs its Agent Card with (EC P-256, Ed25519 or RSA), and the public
 * JWK that verifies it, to be published in the agent's JWKS.
 *
 * <p>PROTOCOL (A2A §8.4): each signature is a JWS (RFC 7515) with a detached payload, the card's
 * canonical JSON ({@link CardPayload}); the card carries its protected header and signature as an
 * {@code AgentCardSignature}. The protected header names {@code alg}, {@code kid} and
 * {@code typ: JOSE}.
 */
public final class CardSigningKey {
    private final JWSAlgorithm algorithm;
    private final JWSSigner signer;
    private final JWK publicJwk;

    private CardSigningKey(PrivateKey privateKey, PublicKey publicKey) {
        this.algorithm = PublicJwk.algorithm(publicKey);
        this.publicJwk = PublicJwk.of(publicKey);
        this.signer = switch (privateKey) {
            case ECPrivateKey ec -> ecdsa(ec);
            default -> privateKey.getAlgorithm().equals("RSA") ? new RSASSASigner(privateKey)
                    : Ed25519Jws.signer(privateKey);
        };
    }

    private static JWSSigner ecdsa(ECPrivateKey key) {
        try {
            return new ECDSASigner(key);
        } catch (JOSEException e) {
            throw new IllegalArgumentException("an EC card signing key must be on P-256: " + e.getMessage(), e);
        }
    }

    /** A key pair already in memory; an unsupported kind or curve is an IllegalArgumentException naming it. */
    public static CardSigningKey of(PrivateKey privateKey, PublicKey publicKey) {
        return new CardSigningKey(privateKey, publicKey);
    }

    /**
     * Reads a PEM private key (PKCS#8, or a traditional RSA or EC key as openssl writes them).
     *
     * @throws PemException naming the file and why it cannot sign a card
     */
    public static CardSigningKey read(Path pem) throws PemException {
        PemFile file = PemFile.read(pem);
        PrivateKey privateKey = file.privateKey();
        PublicKey publicKey = file.publicKeyOfPrivateKey();
        try {
            return new CardSigningKey(privateKey, publicKey);
        } catch (IllegalArgumentException e) {
            throw new PemException(pem + ": " + e.getMessage());
        }
    }

    /** The public half as a JWK, its {@code kid} the one every signature names. */
    public JWK publicJwk() {
        return publicJwk;
    }

    public String keyId() {
        return publicJwk.getKeyID();
    }

    /**
     * A compact JWT (RFC 7519) of {@code claims} signed with this key, its header naming {@code alg},
     * {@code kid} and {@code typ: JWT}: what signs Legate's push notifications, so that the one key
     * (and the one JWKS) serves a receiver that verifies either.
     */
    public String signJwt(JWTClaimsSet claims) {
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(algorithm).keyID(keyId()).type(JOSEObjectType.JWT).build(),
                claims);
        try {
            jwt.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("a JWT could not be signed with key " + keyId() + ": " + e.getMessage(), e);
        }
        return jwt.serialize();
    }

    /** {@code card} with one signature of this key added after the ones it already carries. */
    public AgentCard sign(AgentCard card) {
        JWSHeader header = new JWSHeader.Builder(algorithm).keyID(keyId()).type(JOSEObjectType.JOSE).build();
        JWSObject jws = new JWSObject(header, new Payload(CardPayload.of(card)));
        try {
            jws.sign(signer);
        } catch (JOSEException e) {
            throw new IllegalStateException("the card could not be signed with key " + keyId() + ": " + e.getMessage(), e);
        }
        return card.toBuilder().addSignatures(AgentCardSignature.newBuilder()
                .setProtected(jws.getHeader().toBase64URL().toString())
                .setSignature(jws.getSignature().toString())).build();
    }
}
