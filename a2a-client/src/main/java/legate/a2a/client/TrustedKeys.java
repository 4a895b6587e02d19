package legate.a2a.client;

import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import legate.a2a.model.signature.PublicJwk;
import legate.wire.pem.PemException;
import legate.wire.pem.PemFile;

/**
 * The keys a caller trusts to have signed an agent's card (legate client --trust): a PEM public key
 * file, a JWK or JWKS file, or the URL of a JWKS. A key read from PEM carries no {@code kid} and is
 * tried on every signature; keys of a JWKS are matched by {@code kid}.
 */
public final class TrustedKeys {
    private TrustedKeys() {
    }

    /**
     * Reads {@code source}: an http(s) URL is fetched (with {@code tls}, null for the JDK's
     * authorities, within {@code timeout}); anything else is a file.
     *
     * @throws IllegalArgumentException with a message naming the source and what is wrong with it
     */
    public static List<JWK> load(String source, SSLContext tls, Duration timeout) {
        if (source.startsWith("https://") || source.startsWith("http://")) {
            return fetch(URI.create(source), tls, timeout);
        }
        Path file = Path.of(source);
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(source + " cannot be read: " + e.getMessage());
        }
        if (text.contains("-----BEGIN ")) {
            try {
                PemFile pem = PemFile.read(file);
                return List.of(withoutKid(PublicJwk.of(pem.publicKey())));
            } catch (PemException e) {
                throw new IllegalArgumentException(e.getMessage());
            }
        }
        return parse(text, source);
    }

    private static List<JWK> fetch(URI url, SSLContext tls, Duration timeout) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout);
        if (tls != null) {
            builder.sslContext(tls);
        }
        try (HttpClient http = builder.build()) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(url).timeout(timeout)
                    .header("Accept", "application/jwk-set+json, application/json").build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalArgumentException("no JWKS at " + url + ": HTTP " + response.statusCode());
            }
            return parse(response.body(), url.toString());
        } catch (IOException e) {
            throw new IllegalArgumentException("the JWKS at " + url + " cannot be fetched: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalArgumentException("interrupted while fetching " + url);
        }
    }

    private static List<JWK> parse(String json, String source) {
        try {
            List<JWK> keys = json.contains("\"keys\"") ? JWKSet.parse(json).getKeys() : List.of(JWK.parse(json));
            if (keys.isEmpty()) {
                throw new IllegalArgumentException(source + " holds no key");
            }
            return keys.stream().map(JWK::toPublicJWK).toList();
        } catch (ParseException e) {
            throw new IllegalArgumentException(source + " is not a PEM public key, a JWK or a JWKS: " + e.getMessage());
        }
    }

    /** The same key with no kid: one given alone is tried on every signature. */
    private static JWK withoutKid(JWK key) {
        try {
            Map<String, Object> json = key.toJSONObject();
            json.remove("kid");
            return JWK.parse(json);
        } catch (ParseException e) {
            throw new IllegalStateException(e);
        }
    }
}
