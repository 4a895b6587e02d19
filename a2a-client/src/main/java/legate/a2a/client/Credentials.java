package legate.a2a.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import lf.a2a.v1.APIKeySecurityScheme;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.SecurityRequirement;
import lf.a2a.v1.SecurityScheme;

/**
 * What a client can prove itself with (A2A §7): a bearer token, an API key, a TLS client
 * certificate, OAuth 2 client credentials to obtain tokens with, or several; which one is sent,
 * and how, is what the agent's card asks for. Nothing
 * is sent to an agent whose card declares no scheme, so a credential meant for one agent does not
 * reach every agent dialed. (A client certificate is presented in the TLS handshake, to every
 * https agent that asks for one; {@link ClientTrust#tls()} holds it.)
 *
 * @param token a bearer token (an opaque token or a JWT), sent as {@code Authorization: Bearer}; null for none
 * @param apiKey an API key, sent in the header the card's API-key scheme names; null for none
 * @param clientCertificate whether the client presents a TLS client certificate, which meets a
 *     card's mutual TLS scheme without any header
 * @param oauthClient OAuth 2 client credentials, exchanged for access tokens at the token endpoint
 *     a card's OAuth 2 (client credentials flow) or OpenID Connect scheme names ({@link AccessTokens});
 *     null for none. A bearer {@code token} given as well is sent instead.
 */
public record Credentials(String token, String apiKey, boolean clientCertificate, ClientCredentials oauthClient) {
    /** No credential. */
    public static final Credentials NONE = new Credentials(null, null);

    /**
     * How a client meets the first requirement of a card it can: the headers it sends, and the
     * scheme it obtains an access token for (null when it sends a token it was given, or none).
     *
     * @param scopes the scopes the requirement names for that scheme
     */
    public record Met(Map<String, String> headers, SecurityScheme tokenScheme, List<String> scopes) {
    }

    public Credentials {
        token = token == null || token.isBlank() ? null : token.strip();
        apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey.strip();
    }

    /** A token, an API key, or both, and no client certificate. */
    public Credentials(String token, String apiKey) {
        this(token, apiKey, false, null);
    }

    /** A token, an API key, a client certificate or not, and no OAuth 2 client. */
    public Credentials(String token, String apiKey, boolean clientCertificate) {
        this(token, apiKey, clientCertificate, null);
    }

    /** The same, with a TLS client certificate presented too. */
    public Credentials withClientCertificate() {
        return new Credentials(token, apiKey, true, oauthClient);
    }

    /** The same, obtaining access tokens as {@code client} where a card's scheme names a token endpoint. */
    public Credentials withOAuthClient(ClientCredentials client) {
        return new Credentials(token, apiKey, clientCertificate, client);
    }

    public boolean isEmpty() {
        return token == null && apiKey == null && !clientCertificate && oauthClient == null;
    }

    /**
     * The headers that satisfy the first of the card's {@code securityRequirements} this client can
     * meet (they are alternatives, in the agent's order of preference); empty when it declares none,
     * none can be met, or the one met is met by the client certificate alone.
     */
    public Map<String, String> headersFor(AgentCard card) {
        Met met = meet(card);
        return met == null ? Map.of() : met.headers();
    }

    /**
     * How this client meets the first of the card's {@code securityRequirements} it can (empty
     * headers for one a certificate meets alone), or null for none.
     */
    public Met meet(AgentCard card) {
        for (SecurityRequirement requirement : card.getSecurityRequirementsList()) {
            Map<String, String> headers = new LinkedHashMap<>();
            SecurityScheme[] obtained = new SecurityScheme[1];
            List<String> scopes = List.of();
            boolean met = !requirement.getSchemesMap().isEmpty();
            for (var entry : requirement.getSchemesMap().entrySet()) {
                SecurityScheme scheme = card.getSecuritySchemesMap().get(entry.getKey());
                if (scheme == null || !addFor(scheme, headers, obtained)) {
                    met = false;
                    break;
                }
                if (obtained[0] == scheme) {
                    scopes = List.copyOf(entry.getValue().getListList());
                }
            }
            if (met) {
                return new Met(headers, obtained[0], scopes);
            }
        }
        return null;
    }

    /** Why {@link #headersFor} found nothing to send, for a person; null when it did, or nothing was asked. */
    public String unmet(AgentCard card) {
        if (card.getSecurityRequirementsCount() == 0 || meet(card) != null) {
            return null;
        }
        return "the agent's card asks for " + String.join(" or ", card.getSecuritySchemesMap().keySet())
                + (isEmpty() ? ", and no credential was given (--token / A2A_TOKEN, --api-key / A2A_API_KEY,"
                + " --client-cert and --client-key / A2A_CLIENT_CERT and A2A_CLIENT_KEY,"
                + " --client-id and --client-secret / A2A_CLIENT_ID and A2A_CLIENT_SECRET)"
                : ", which the credential given does not meet");
    }

    /** @param obtained set to the scheme when its token is to be obtained with {@link #oauthClient} */
    private boolean addFor(SecurityScheme scheme, Map<String, String> headers, SecurityScheme[] obtained) {
        String bearer = token == null ? null : "Bearer " + token;
        return switch (scheme.getSchemeCase()) {
            case HTTP_AUTH_SECURITY_SCHEME -> bearer != null
                    && scheme.getHttpAuthSecurityScheme().getScheme().equalsIgnoreCase("Bearer")
                    && headers.put("Authorization", bearer) == null;
            case API_KEY_SECURITY_SCHEME -> {
                APIKeySecurityScheme key = scheme.getApiKeySecurityScheme();
                yield apiKey != null && key.getLocation().equalsIgnoreCase("header") && !key.getName().isBlank()
                        && headers.put(key.getName(), apiKey) == null;
            }
            // An access token obtained out of band (A2A §7) travels as a bearer token; without one,
            // the client obtains its own where the scheme names a token endpoint (client credentials).
            case OAUTH2_SECURITY_SCHEME, OPEN_ID_CONNECT_SECURITY_SCHEME -> {
                if (bearer != null) {
                    yield headers.put("Authorization", bearer) == null;
                }
                if (oauthClient == null || AccessTokens.endpointOf(scheme) == null || obtained[0] != null
                        || headers.containsKey("Authorization")) {
                    yield false;
                }
                obtained[0] = scheme;
                yield true;
            }
            // Met in the TLS handshake, by the certificate the client's TLS context presents: no header.
            case MTLS_SECURITY_SCHEME -> clientCertificate;
            case SCHEME_NOT_SET -> false;
        };
    }
}
