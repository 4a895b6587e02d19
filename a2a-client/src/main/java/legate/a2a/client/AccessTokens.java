package legate.a2a.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import legate.wire.json.WireJson;
import lf.a2a.v1.SecurityScheme;

/**
 * Access tokens obtained with the OAuth 2 client credentials grant (RFC 6749 §4.4) for the scheme an
 * agent's card declares (A2A §7): its {@code oauth2SecurityScheme}'s {@code clientCredentials} flow
 * names the token endpoint, or its {@code openIdConnectSecurityScheme} names a discovery document
 * (OpenID Connect Discovery 1.0) whose {@code token_endpoint} is used.
 *
 * <p>A token is fetched when a call first needs one, kept, and fetched again {@link #EARLY} before
 * the expiry its endpoint gave ({@code expires_in}; half the lifetime for a short one), so that it
 * does not expire on the way; one without an expiry is kept for {@link #UNTIMED}. Thread-safe: one
 * fetch at a time, and callers that arrive meanwhile wait for its token.
 *
 * <p>The client's secret is sent only to a token endpoint over https, or over http to a loopback
 * address (a development server on this machine); never logged, never in a message.
 */
public final class AccessTokens {
    /** How long before its expiry a token is renewed. */
    public static final Duration EARLY = Duration.ofSeconds(30);
    /** How long a token whose endpoint gave no {@code expires_in} is used. */
    public static final Duration UNTIMED = Duration.ofMinutes(5);

    /** The card's tokenUrl or discovery document, as the card wrote it: a card's text is parsed where its fault can be reported. */
    private final String declared;
    private final boolean discovered;
    private final ClientCredentials client;
    private final List<String> scopes;
    private final HttpClient http;
    private final Duration timeout;
    private final Clock clock;
    private URI tokenEndpoint;
    private String token;
    private Instant renewAt = Instant.MIN;

    /**
     * @param scheme the card's scheme: an OAuth 2 one with a client credentials flow, or an OpenID Connect one
     * @param scopes the scopes to ask for: the client's own when it names any, else the requirement's
     * @param timeout bounds each exchange with the authorization server
     * @throws IllegalArgumentException when the scheme names no token endpoint this grant can use
     */
    public AccessTokens(SecurityScheme scheme, ClientCredentials client, List<String> scopes, HttpClient http,
                        Duration timeout, Clock clock) {
        String url = endpointOf(scheme);
        if (url == null) {
            throw new IllegalArgumentException("the scheme names no token endpoint for the client credentials grant");
        }
        this.declared = url.strip();
        this.discovered = scheme.hasOpenIdConnectSecurityScheme();
        this.client = client;
        this.scopes = client.scopes().isEmpty() ? List.copyOf(scopes) : client.scopes();
        this.http = http;
        this.timeout = timeout;
        this.clock = clock;
    }

    /**
     * Where a scheme says tokens come from: a client credentials flow's {@code tokenUrl}, or an
     * OpenID Connect discovery document; null when it says neither.
     */
    public static String endpointOf(SecurityScheme scheme) {
        return switch (scheme.getSchemeCase()) {
            case OAUTH2_SECURITY_SCHEME -> {
                var flows = scheme.getOauth2SecurityScheme().getFlows();
                String url = flows.hasClientCredentials() ? flows.getClientCredentials().getTokenUrl() : "";
                yield url.isBlank() ? null : url;
            }
            case OPEN_ID_CONNECT_SECURITY_SCHEME -> {
                String url = scheme.getOpenIdConnectSecurityScheme().getOpenIdConnectUrl();
                yield url.isBlank() ? null : url;
            }
            default -> null;
        };
    }

    /**
     * A token valid now, fetched when there is none or it is about to expire.
     *
     * @throws CredentialException when the authorization server cannot be reached, refuses the
     *     client's credentials, or answers no bearer token
     */
    public synchronized String current() {
        if (token == null || !clock.instant().isBefore(renewAt)) {
            fetch();
        }
        return token;
    }

    /** Drops the token, so that the next call fetches another: the agent refused this one before its expiry. */
    public synchronized void forget() {
        token = null;
    }

    private void fetch() {
        URI endpoint = tokenEndpoint();
        StringBuilder form = new StringBuilder("grant_type=client_credentials");
        if (!scopes.isEmpty()) {
            form.append("&scope=").append(encode(String.join(" ", scopes)));
        }
        // RFC 6749 §2.3.1: the id and secret, each form-encoded, as HTTP Basic credentials.
        String basic = Base64.getEncoder().encodeToString((encode(client.clientId()) + ":" + encode(client.clientSecret()))
                .getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(endpoint).timeout(timeout)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .header("Authorization", "Basic " + basic)
                .POST(HttpRequest.BodyPublishers.ofString(form.toString())).build();
        Instant asked = clock.instant();
        Answer reply = exchange(request, endpoint, "the token endpoint");
        JsonNode answer = reply.json();
        if (reply.status() != 200) {
            // RFC 6749 §5.2: error, and optionally error_description, say why.
            String error = answer.path("error").asText("");
            String description = answer.path("error_description").asText("");
            throw new CredentialException(endpoint, "the token endpoint " + endpoint + " refused client "
                    + client.clientId() + " (HTTP " + reply.status()
                    + (error.isEmpty() ? "" : ", " + error) + (description.isEmpty() ? "" : ": " + description) + ")", null);
        }
        String accessToken = answer.path("access_token").asText("");
        String type = answer.path("token_type").asText("");
        if (accessToken.isBlank() || !type.equalsIgnoreCase("Bearer")) {
            throw new CredentialException(endpoint, "the token endpoint " + endpoint + " answered no bearer token"
                    + (type.isEmpty() ? "" : " (token_type " + type + ")"), null);
        }
        // Counted from the request: the token's lifetime began before its answer arrived.
        long expiresIn = answer.path("expires_in").asLong(0);
        Duration lifetime = expiresIn > 0 ? Duration.ofSeconds(expiresIn) : UNTIMED;
        Duration early = lifetime.compareTo(EARLY.multipliedBy(2)) < 0 ? lifetime.dividedBy(2) : EARLY;
        token = accessToken;
        renewAt = asked.plus(lifetime).minus(early);
    }

    /**
     * The token endpoint, found once: the one the card declares, or the one its discovery document
     * names, and in either case the one the client's credentials are for. A card that names another
     * authorization server is refused before the secret leaves.
     */
    private URI tokenEndpoint() {
        if (tokenEndpoint != null) {
            return tokenEndpoint;
        }
        String configured = withoutSlash(client.authorizationServer().toString());
        URI cardUrl = declaredUri();
        URI endpoint = cardUrl;
        if (discovered) {
            refuseCleartext(cardUrl, "the OpenID Connect discovery document");
            Answer reply = exchange(HttpRequest.newBuilder(cardUrl).timeout(timeout)
                    .header("Accept", "application/json").GET().build(), cardUrl, "the discovery document");
            String issuer = reply.json().path("issuer").asText("");
            String named = reply.json().path("token_endpoint").asText("");
            if (reply.status() != 200 || named.isBlank()) {
                throw new CredentialException(cardUrl, "the OpenID Connect discovery document " + cardUrl
                        + " names no token_endpoint (HTTP " + reply.status() + ")", null);
            }
            // PROTOCOL (OIDC Discovery §4.3): the document must be its issuer's, or one served
            // elsewhere could send the client's secret to another server.
            if (issuer.isBlank() || !cardUrl.toString().equals(withoutSlash(issuer) + "/.well-known/openid-configuration")) {
                throw new CredentialException(cardUrl, "the OpenID Connect discovery document " + cardUrl
                        + " is for issuer " + (issuer.isBlank() ? "(none)" : issuer) + ", not the one at that address", null);
            }
            try {
                endpoint = cardUrl.resolve(named.strip());
            } catch (IllegalArgumentException e) {
                throw new CredentialException(cardUrl, "the discovery document's token_endpoint is no URL: " + named, e);
            }
            if (!configured.equals(withoutSlash(issuer)) && !configured.equals(withoutSlash(endpoint.toString()))) {
                throw refusedServer(cardUrl, issuer);
            }
        } else if (!configured.equals(withoutSlash(cardUrl.toString()))) {
            throw refusedServer(cardUrl, cardUrl.toString());
        }
        refuseCleartext(endpoint, "the token endpoint");
        tokenEndpoint = endpoint;
        return endpoint;
    }

    /** The card's URL, parsed; a card's bad one is a CredentialException naming it, never an unchecked one. */
    private URI declaredUri() {
        try {
            URI uri = new URI(declared);
            if (uri.isAbsolute() && uri.getHost() != null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // reported below
        }
        throw new CredentialException(null, "the agent's card names a token endpoint that is no absolute URL: " + declared,
                null);
    }

    private CredentialException refusedServer(URI cardUrl, String named) {
        return new CredentialException(cardUrl, "the agent's card names the authorization server " + named
                + ", but the client credentials given are for " + client.authorizationServer()
                + " (--token-url / A2A_TOKEN_URL); the secret is not sent", null);
    }

    private static String withoutSlash(String url) {
        String u = url.strip();
        return u.endsWith("/") ? u.substring(0, u.length() - 1) : u;
    }

    private static void refuseCleartext(URI uri, String what) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (scheme.equals("https")) {
            return;
        }
        String host = uri.getHost() == null ? "" : uri.getHost();
        boolean loopback = host.equals("localhost") || host.equals("[::1]") || host.equals("::1") || host.startsWith("127.");
        if (!scheme.equals("http") || !loopback) {
            // RFC 6749 §3.2: the token endpoint is reached over TLS; the secret is not sent in the clear.
            throw new CredentialException(uri, what + " " + uri + " is not https; the client's secret is sent over"
                    + " https only (or http to this machine)", null);
        }
    }

    /** An authorization server's answer: its status and its JSON object. */
    private record Answer(int status, JsonNode json) {
    }

    private Answer exchange(HttpRequest request, URI target, String what) {
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw new CredentialException(target, what + " " + target + " cannot be reached: "
                    + TransportException.of(e, target).getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CredentialException(target, "interrupted while asking " + what + " " + target, e);
        }
        JsonNode json;
        try {
            json = WireJson.mapper().readTree(response.body());
        } catch (IOException e) {
            json = null;
        }
        if (json == null || !json.isObject()) {
            throw new CredentialException(target, what + " " + target + " answered HTTP " + response.statusCode()
                    + " without a JSON object", null);
        }
        return new Answer(response.statusCode(), json);
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
