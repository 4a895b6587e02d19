package legate.a2a.client;

import java.util.LinkedHashMap;
import java.util.Map;
import lf.a2a.v1.APIKeySecurityScheme;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.SecurityRequirement;
import lf.a2a.v1.SecurityScheme;

/**
 * What a client can prove itself with (A2A §7): a bearer token, an API key, a TLS client
 * certificate, or several; which one is sent, and how, is what the agent's card asks for. Nothing
 * is sent to an agent whose card declares no scheme, so a credential meant for one agent does not
 * reach every agent dialed. (A client certificate is presented in the TLS handshake, to every
 * https agent that asks for one; {@link ClientTrust#tls()} holds it.)
 *
 * @param token a bearer token (an opaque token or a JWT), sent as {@code Authorization: Bearer}; null for none
 * @param apiKey an API key, sent in the header the card's API-key scheme names; null for none
 * @param clientCertificate whether the client presents a TLS client certificate, which meets a
 *     card's mutual TLS scheme without any header
 */
public record Credentials(String token, String apiKey, boolean clientCertificate) {
    /** No credential. */
    public static final Credentials NONE = new Credentials(null, null);

    public Credentials {
        token = token == null || token.isBlank() ? null : token.strip();
        apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey.strip();
    }

    /** A token, an API key, or both, and no client certificate. */
    public Credentials(String token, String apiKey) {
        this(token, apiKey, false);
    }

    /** The same, with a TLS client certificate presented too. */
    public Credentials withClientCertificate() {
        return new Credentials(token, apiKey, true);
    }

    public boolean isEmpty() {
        return token == null && apiKey == null && !clientCertificate;
    }

    /**
     * The headers that satisfy the first of the card's {@code securityRequirements} this client can
     * meet (they are alternatives, in the agent's order of preference); empty when it declares none,
     * none can be met, or the one met is met by the client certificate alone.
     */
    public Map<String, String> headersFor(AgentCard card) {
        Map<String, String> met = firstMet(card);
        return met == null ? Map.of() : met;
    }

    /** The headers of the first requirement this client meets (empty for one a certificate meets alone), or null for none. */
    private Map<String, String> firstMet(AgentCard card) {
        for (SecurityRequirement requirement : card.getSecurityRequirementsList()) {
            Map<String, String> headers = new LinkedHashMap<>();
            boolean met = !requirement.getSchemesMap().isEmpty();
            for (String name : requirement.getSchemesMap().keySet()) {
                SecurityScheme scheme = card.getSecuritySchemesMap().get(name);
                if (scheme == null || !addFor(scheme, headers)) {
                    met = false;
                    break;
                }
            }
            if (met) {
                return headers;
            }
        }
        return null;
    }

    /** Why {@link #headersFor} found nothing to send, for a person; null when it did, or nothing was asked. */
    public String unmet(AgentCard card) {
        if (card.getSecurityRequirementsCount() == 0 || firstMet(card) != null) {
            return null;
        }
        return "the agent's card asks for " + String.join(" or ", card.getSecuritySchemesMap().keySet())
                + (isEmpty() ? ", and no credential was given (--token / A2A_TOKEN, --api-key / A2A_API_KEY,"
                + " --client-cert and --client-key / A2A_CLIENT_CERT and A2A_CLIENT_KEY)"
                : ", which the credential given does not meet");
    }

    private boolean addFor(SecurityScheme scheme, Map<String, String> headers) {
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
            // An access token obtained out of band (A2A §7) travels as a bearer token.
            case OAUTH2_SECURITY_SCHEME, OPEN_ID_CONNECT_SECURITY_SCHEME -> bearer != null
                    && headers.put("Authorization", bearer) == null;
            // Met in the TLS handshake, by the certificate the client's TLS context presents: no header.
            case MTLS_SECURITY_SCHEME -> clientCertificate;
            case SCHEME_NOT_SET -> false;
        };
    }
}
