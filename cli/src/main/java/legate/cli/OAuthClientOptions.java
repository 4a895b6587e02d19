package legate.cli;

import java.net.URI;
import java.util.Arrays;
import java.util.List;
import legate.a2a.client.ClientCredentials;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The OAuth 2 client credentials {@code legate client} and {@code legate mcp} obtain access tokens
 * with (RFC 6749 §4.4), as one picocli mixin: for an agent whose card asks for an OAuth 2 or OpenID
 * Connect token, from the authorization server named here and nowhere else.
 */
final class OAuthClientOptions {
    @Option(names = "--token-url", descriptionKey = "A2A_TOKEN_URL", paramLabel = "URL", scope = ScopeType.INHERIT,
            description = "The authorization server the client credentials are for: its token endpoint, or its issuer"
                    + " (OpenID Connect); a card naming another one is refused [A2A_TOKEN_URL].")
    String tokenUrl;

    @Option(names = "--client-id", descriptionKey = "A2A_CLIENT_ID", paramLabel = "ID", scope = ScopeType.INHERIT,
            description = "OAuth 2 client id: obtain access tokens (client credentials grant) where the card asks for"
                    + " OAuth 2 or OpenID Connect [A2A_CLIENT_ID]; needs --client-secret and --token-url.")
    String clientId;

    @Option(names = "--client-secret", descriptionKey = "A2A_CLIENT_SECRET", paramLabel = "SECRET", scope = ScopeType.INHERIT,
            description = "The OAuth 2 client's secret; prefer the variable, a flag shows in ps [A2A_CLIENT_SECRET].")
    String clientSecret;

    @Option(names = "--scope", descriptionKey = "A2A_SCOPE", paramLabel = "SCOPES", scope = ScopeType.INHERIT,
            description = "The scopes to ask for, separated by spaces or commas [A2A_SCOPE] (default: those the card's"
                    + " requirement names).")
    String scope;

    /**
     * The client's credentials, or null when none of the three is set.
     *
     * @throws IllegalArgumentException naming what is missing or wrong
     */
    ClientCredentials credentials() {
        boolean any = set(tokenUrl) || set(clientId) || set(clientSecret);
        if (!any) {
            return null;
        }
        if (!set(tokenUrl) || !set(clientId) || !set(clientSecret)) {
            throw new IllegalArgumentException("--token-url, --client-id and --client-secret (A2A_TOKEN_URL, A2A_CLIENT_ID,"
                    + " A2A_CLIENT_SECRET) go together: set all three, or none");
        }
        URI server;
        try {
            server = URI.create(tokenUrl.strip());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--token-url (A2A_TOKEN_URL) is not a URL: " + tokenUrl);
        }
        List<String> scopes = scope == null ? List.of()
                : Arrays.stream(scope.split("[\\s,]+")).filter(s -> !s.isBlank()).toList();
        return new ClientCredentials(server, clientId, clientSecret, scopes);
    }

    private static boolean set(String s) {
        return s != null && !s.isBlank();
    }
}
