package legate.wire.pem;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;

/**
 * Whether a private key and a certificate's public key are one pair: what a server's TLS identity
 * and a client's certificate are both checked for when read, so that a mismatched pair is named at
 * start rather than failing every handshake later.
 */
public final class KeyPairs {
    private KeyPairs() {
    }

    /** Whether {@code key} signs what {@code publicKey} verifies. */
    public static boolean belongTogether(PrivateKey key, PublicKey publicKey) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            default -> key.getAlgorithm();
        };
        try {
            byte[] probe = "legate".getBytes(StandardCharsets.US_ASCII);
            Signature sign = Signature.getInstance(algorithm);
            sign.initSign(key);
            sign.update(probe);
            byte[] signature = sign.sign();
            Signature verify = Signature.getInstance(algorithm);
            verify.initVerify(publicKey);
            verify.update(probe);
            return verify.verify(signature);
        } catch (GeneralSecurityException e) {
            return false;
        }
    }
}
