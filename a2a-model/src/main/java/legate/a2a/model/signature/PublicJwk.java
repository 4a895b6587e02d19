package legate.a2a.model.signature;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.EdECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;

/**
 * The three kinds of key an Agent Card may be signed with (EC P-256, Ed25519, RSA), as a public JWK
 * (RFC 7517) and back, each with the JWS algorithm it signs with: ES256, EdDSA, RS256. The key id
 * is the key's RFC 7638 thumbprint, so the same key always has the same {@code kid}.
 */
public final class PublicJwk {
    // SubjectPublicKeyInfo of an Ed25519 key (RFC 8410 §4) up to its 32 raw bytes.
    private static final byte[] ED25519_SPKI_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};

    private PublicJwk() {
    }

    /** The JWS algorithm a key of this kind signs with. */
    public static JWSAlgorithm algorithm(PublicKey key) {
        return switch (key) {
            case ECPublicKey ec -> JWSAlgorithm.ES256;
            case EdECPublicKey ed -> JWSAlgorithm.EdDSA;
            case RSAPublicKey rsa -> JWSAlgorithm.RS256;
            default -> throw new IllegalArgumentException("a card is signed with an EC P-256, Ed25519 or RSA key, not "
                    + key.getAlgorithm());
        };
    }

    /** {@code key} as a public JWK for signatures, its kid its thumbprint. */
    public static JWK of(PublicKey key) {
        try {
            return switch (key) {
                case ECPublicKey ec -> {
                    if (!Curve.P_256.equals(Curve.forECParameterSpec(ec.getParams()))) {
                        throw new IllegalArgumentException("an EC card signing key must be on P-256");
                    }
                    yield new ECKey.Builder(Curve.P_256, ec).keyUse(KeyUse.SIGNATURE).algorithm(JWSAlgorithm.ES256)
                            .keyIDFromThumbprint().build();
                }
                case EdECPublicKey ed -> {
                    if (!"Ed25519".equals(ed.getParams().getName())) {
                        throw new IllegalArgumentException("an EdDSA card signing key must be Ed25519, not "
                                + ed.getParams().getName());
                    }
                    byte[] spki = ed.getEncoded();
                    byte[] x = Arrays.copyOfRange(spki, spki.length - 32, spki.length);
                    yield new OctetKeyPair.Builder(Curve.Ed25519, Base64URL.encode(x)).keyUse(KeyUse.SIGNATURE)
                            .algorithm(JWSAlgorithm.EdDSA).keyIDFromThumbprint().build();
                }
                case RSAPublicKey rsa -> new RSAKey.Builder(rsa).keyUse(KeyUse.SIGNATURE).algorithm(JWSAlgorithm.RS256)
                        .keyIDFromThumbprint().build();
                default -> throw new IllegalArgumentException(
                        "a card is signed with an EC P-256, Ed25519 or RSA key, not " + key.getAlgorithm());
            };
        } catch (JOSEException e) {
            throw new IllegalStateException("the key's thumbprint cannot be computed", e);
        }
    }

    /** The public key a JWK describes; an unsupported kind or curve is an IllegalArgumentException naming it. */
    public static PublicKey toPublicKey(JWK jwk) {
        try {
            return switch (jwk) {
                case ECKey ec -> ec.toECPublicKey();
                case RSAKey rsa -> rsa.toRSAPublicKey();
                case OctetKeyPair okp when Curve.Ed25519.equals(okp.getCurve()) -> {
                    byte[] x = okp.getX().decode();
                    byte[] spki = Arrays.copyOf(ED25519_SPKI_PREFIX, ED25519_SPKI_PREFIX.length + x.length);
                    System.arraycopy(x, 0, spki, ED25519_SPKI_PREFIX.length, x.length);
                    yield KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(spki));
                }
                default -> throw new IllegalArgumentException("key " + jwk.getKeyID() + " is a " + jwk.getKeyType()
                        + " key, not one a card is signed with (EC P-256, Ed25519, RSA)");
            };
        } catch (JOSEException | GeneralSecurityException e) {
            throw new IllegalArgumentException("key " + jwk.getKeyID() + " is not a usable public key: " + e.getMessage(), e);
        }
    }
}
