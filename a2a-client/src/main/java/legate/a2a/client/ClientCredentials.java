package legate.a2a.client;

import java.net.URI;
import java.util.List;

/**
 * An OAuth 2 client's own credentials (RFC 6749 §4.4, the client credentials grant): what a client
 * that acts for itself, not for a person, exchanges for an access token at the token endpoint an
 * agent's card names (A2A §7: an {@code oauth2SecurityScheme} with a {@code clientCredentials}
 * flow, or an {@code openIdConnectSecurityScheme} whose discovery document names one).
 *
 * <p>The credentials are for one authorization server, named here: the card only says that a token
 * is wanted and from where, and a card naming another server never gets the secret (an agent could
 * otherwise name its own endpoint and collect the secrets of every client that dials it).
 *
 * @param authorizationServer the server the credentials are for: its token endpoint, or its
 *     issuer URL (OpenID Connect, whose discovery document names the token endpoint)
 * @param clientId the client's identifier at the authorization server
 * @param clientSecret its secret, sent with HTTP Basic authentication (RFC 6749 §2.3.1); never logged
 * @param scopes the scopes asked for; empty: those the card's requirement names, or the server's default
 */
public record ClientCredentials(URI authorizationServer, String clientId, String clientSecret, List<String> scopes) {
    public ClientCredentials {
        if (clientId == null || clientId.isBlank() || clientSecret == null || clientSecret.isBlank()) {
            throw new IllegalArgumentException("an OAuth 2 client needs both its id and its secret");
        }
        if (authorizationServer == null || !authorizationServer.isAbsolute() || authorizationServer.getHost() == null
                || !authorizationServer.getScheme().matches("(?i)https?")) {
            throw new IllegalArgumentException("an OAuth 2 client needs the http(s) URL of its authorization server"
                    + " (its token endpoint or its issuer), got " + authorizationServer);
        }
        clientId = clientId.strip();
        clientSecret = clientSecret.strip();
        scopes = scopes == null ? List.of() : List.copyOf(scopes);
    }

    /** Never the secret: a record's default would print it. */
    @Override
    public String toString() {
        return "ClientCredentials[authorizationServer=" + authorizationServer + ", clientId=" + clientId
                + ", scopes=" + scopes + "]";
    }
}
