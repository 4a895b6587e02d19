package legate.a2a.model.signature;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.JWSVerifier;
import com.nimbusds.jose.jca.JCAContext;
import com.nimbusds.jose.util.Base64URL;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Set;

/**
 * JWS with {@code alg: EdDSA} over Ed25519 (RFC 8037) through the JDK's own Ed25519. nimbus-jose-jwt
 * signs EdDSA only through Google Tink, a dependency of several megabytes that the JDK makes
 * unnecessary since Java 15.
 */
final class Ed25519Jws implements JWSSigner, JWSVerifier {
    private final PrivateKey privateKey;
    private final PublicKey publicKey;
    private final JCAContext jca = new JCAContext();

    private Ed25519Jws(PrivateKey privateKey, PublicKey publicKey) {
        this.privateKey = privateKey;
        this.publicKey = publicKey;
    }

    static Ed25519Jws signer(PrivateKey key) {
        return new Ed25519Jws(key, null);
    }

    static Ed25519Jws verifier(PublicKey key) {
        return new Ed25519Jws(null, key);
    }

    @Override
    public Base64URL sign(JWSHeader header, byte[] signingInput) throws JOSEException {
        check(header);
        try {
            Signature s = Signature.getInstance("Ed25519");
            s.initSign(privateKey);
            s.update(signingInput);
            return Base64URL.encode(s.sign());
        } catch (GeneralSecurityException e) {
            throw new JOSEException("Ed25519 signing failed: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean verify(JWSHeader header, byte[] signedContent, Base64URL signature) throws JOSEException {
        check(header);
        try {
            Signature s = Signature.getInstance("Ed25519");
            s.initVerify(publicKey);
            s.update(signedContent);
            return s.verify(signature.decode());
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    private static void check(JWSHeader header) throws JOSEException {
        if (!JWSAlgorithm.EdDSA.equals(header.getAlgorithm()) && !JWSAlgorithm.Ed25519.equals(header.getAlgorithm())) {
            throw new JOSEException("an Ed25519 key signs EdDSA, not " + header.getAlgorithm());
        }
    }

    @Override
    public Set<JWSAlgorithm> supportedJWSAlgorithms() {
        return Set.of(JWSAlgorithm.EdDSA, JWSAlgorithm.Ed25519);
    }

    @Override
    public JCAContext getJCAContext() {
        return jca;
    }
}
