package legate.a2a.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import legate.wire.json.WireJson;

/**
 * An issuer's signing keys found by OpenID Connect Discovery 1.0: its configuration document at
 * {@code {issuer}/.well-known/openid-configuration} (§4) names the {@code jwks_uri} the keys are
 * read from. Read when the first token arrives rather than at start, so that a server does not
 * depend on its identity provider to start; a failed read refuses that token and is tried again at
 * the next one, at most once per {@code retryInterval}.
 *
 * <p>PROTOCOL (OIDC Discovery §4.3): the document's {@code issuer} must be exactly the configured
 * one, or a document served elsewhere could name keys that sign tokens for another issuer.
 */
final class IssuerDiscovery implements JWKSource<SecurityContext> {
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER).build();

    private final String issuer;
    private final URI document;
    private final Duration retryInterval;
    private final Function<URI, JWKSource<SecurityContext>> keysAt;
    private volatile JWKSource<SecurityContext> keys;
    private long lastAttemptNanos;
    private String lastFailure;

    /**
     * @param keysAt the key source for a discovered {@code jwks_uri} (cached and refetched on a new kid)
     * @throws IllegalArgumentException when the issuer is not an http(s) URL, whose document could be found
     */
    IssuerDiscovery(String issuer, Duration retryInterval, Function<URI, JWKSource<SecurityContext>> keysAt) {
        this.issuer = issuer;
        this.document = documentOf(issuer);
        this.retryInterval = retryInterval;
        this.keysAt = keysAt;
    }

    /** {@code {issuer}/.well-known/openid-configuration}, the issuer's trailing slash dropped (OIDC Discovery §4). */
    static URI documentOf(String issuer) {
        URI uri;
        try {
            uri = URI.create(issuer.strip());
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        if (uri == null || uri.getScheme() == null || !uri.getScheme().matches("https?") || uri.getHost() == null
                || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("A2A_JWT_ISSUER must be the issuer's URL (https://...) for its keys to be"
                    + " discovered, or set A2A_JWKS_URL or A2A_JWT_KEY; got " + issuer);
        }
        String base = issuer.strip().replaceAll("/+$", "");
        return URI.create(base + "/.well-known/openid-configuration");
    }

    /** Where the issuer's configuration document is read: what the card's OpenID Connect scheme names. */
    URI document() {
        return document;
    }

    @Override
    public List<JWK> get(JWKSelector selector, SecurityContext context) throws KeySourceException {
        return keys().get(selector, context);
    }

    private JWKSource<SecurityContext> keys() throws KeySourceException {
        JWKSource<SecurityContext> found = keys;
        if (found != null) {
            return found;
        }
        synchronized (this) {
            if (keys != null) {
                return keys;
            }
            long now = System.nanoTime();
            if (lastFailure != null && now - lastAttemptNanos < retryInterval.toNanos()) {
                throw new KeySourceException(lastFailure);
            }
            lastAttemptNanos = now;
            try {
                keys = keysAt.apply(jwksUri());
                lastFailure = null;
                return keys;
            } catch (KeySourceException | IllegalArgumentException e) {
                lastFailure = e.getMessage();
                throw e instanceof KeySourceException k ? k : new KeySourceException(e.getMessage(), e);
            }
        }
    }

    /** The {@code jwks_uri} the issuer's document names, checked. */
    private URI jwksUri() throws KeySourceException {
        JsonNode doc;
        try {
            HttpResponse<byte[]> answer = HTTP.send(HttpRequest.newBuilder(document).timeout(TIMEOUT)
                    .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            if (answer.statusCode() != 200) {
                throw new KeySourceException("the issuer's configuration " + document + " answered HTTP "
                        + answer.statusCode());
            }
            doc = WireJson.mapper().readTree(answer.body());
        } catch (IOException e) {
            throw new KeySourceException("the issuer's configuration " + document + " cannot be read: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new KeySourceException("interrupted while reading " + document, e);
        }
        if (doc == null || !doc.path("issuer").isTextual() || !doc.path("issuer").asText().equals(issuer)) {
            throw new KeySourceException("the configuration at " + document + " is for issuer "
                    + (doc == null ? "(none)" : doc.path("issuer")) + ", not " + issuer + " (OIDC Discovery §4.3)");
        }
        String jwks = doc.path("jwks_uri").asText("");
        try {
            URI uri = URI.create(jwks);
            if (uri.getScheme() == null || !uri.getScheme().matches("https?") || uri.getHost() == null) {
                throw new IllegalArgumentException("not an http(s) URL");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new KeySourceException("the configuration at " + document + " names no usable jwks_uri: \"" + jwks + "\"");
        }
    }
}
