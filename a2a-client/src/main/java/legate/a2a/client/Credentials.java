package legate.a2a.client;

import java.util.LinkedHashMap;
import java.util.Map;
import lf.a2a.v1.APIKeySecurityScheme;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.SecurityRequirement;
import lf.a2a.v1.SecurityScheme;

/**
 * What a client can prove itself with (A2A §7): a bearer token, an API key, or both; which one is
 * sent, and how, is what the agent's card asks for. Nothing is sent to an agent whose card
 * declares no scheme, so a credential meant for one agent does not reach every agent dialed.
 *
 * @param token a bearer token (an opaque token or a JWT), sent as {@code Authorization: Bearer}; null for none
 * @param apiKey an API key, sent in the header the card's API-key scheme names; null for none
 */
public record Credentials(String token, String apiKey) {
    /** No credential. */
    public static final Credentials NONE = new Credentials(null, null);

    public Credentials {
        token = token == null || token.isBlank() ? null : token.strip();
        apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey.strip();
    }

    public boolean isEmpty() {
        return token == null && apiKey == null;
    }

    /**
     * The headers that satisfy the first of the card's {@code securityRequirements} this client can
     * meet (they are alternatives, in the agent's order of preference); empty when it declares none
     * or none can be met.
     */
    public Map<String, String> headersFor(AgentCard card) {
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
        return Map.of();
    }

    /** Why {@link #headersFor} found nothing to send, for a person; null when it did, or nothing was asked. */
    public String unmet(AgentCard card) {
        if (card.getSecurityRequirementsCount() == 0 || !headersFor(card).isEmpty()) {
            return null;
        }
        return "the agent's card asks for " + String.join(" or ", card.getSecuritySchemesMap().keySet())
                + (isEmpty() ? ", and no credential was given (--token / A2A_TOKEN, --api-key / A2A_API_KEY)"
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
            case MTLS_SECURITY_SCHEME, SCHEME_NOT_SET -> false;
        };
    }
}
