package legate.a2a.server.auth;

import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.ECPublicKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.text.ParseException;
import java.util.Base64;
import java.util.List;

/**
 * The issuer's verification keys from a file ({@code A2A_JWT_KEY}): a PEM {@code PUBLIC KEY}
 * (RSA or EC, the SubjectPublicKeyInfo that {@code openssl pkey -pubout} writes) or a JWKS document.
 */
public record PublicKeyFile(Path path, List<JWK> jwks) {

    /** @throws IllegalArgumentException naming the file when it holds no usable key */
    public static PublicKeyFile read(Path path) {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read A2A_JWT_KEY " + path + ": " + e.getMessage());
        }
        if (text.stripLeading().startsWith("{")) {
            try {
                List<JWK> keys = JWKSet.parse(text).getKeys();
                if (keys.isEmpty()) {
                    throw new IllegalArgumentException("A2A_JWT_KEY " + path + " is a JWKS with no key");
                }
                return new PublicKeyFile(path, keys.stream().map(JWK::toPublicJWK).toList());
            } catch (ParseException e) {
                throw new IllegalArgumentException("A2A_JWT_KEY " + path + " is not a JWKS: " + e.getMessage());
            }
        }
        return new PublicKeyFile(path, List.of(fromPem(path, text)));
    }

    private static JWK fromPem(Path path, String text) {
        String begin = "-----BEGIN PUBLIC KEY-----";
        String end = "-----END PUBLIC KEY-----";
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("A2A_JWT_KEY " + path + " holds no PEM PUBLIC KEY block (nor a JWKS)");
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(text.substring(from + begin.length(), to));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("A2A_JWT_KEY " + path + ": the PEM block is not base64");
        }
        PublicKey key = null;
        for (String algorithm : List.of("RSA", "EC")) {
            try {
                key = KeyFactory.getInstance(algorithm).generatePublic(new X509EncodedKeySpec(der));
                break;
            } catch (GeneralSecurityException e) {
                // not this kind of key: try the next
            }
        }
        if (key instanceof RSAPublicKey rsa) {
            return new RSAKey.Builder(rsa).build();
        }
        if (key instanceof ECPublicKey ec) {
            Curve curve = Curve.forECParameterSpec(ec.getParams());
            if (curve == null) {
                throw new IllegalArgumentException("A2A_JWT_KEY " + path + ": an EC key on a curve JWT does not use");
            }
            return new ECKey.Builder(curve, ec).build();
        }
        throw new IllegalArgumentException("A2A_JWT_KEY " + path + " is neither an RSA nor an EC public key");
    }
}
