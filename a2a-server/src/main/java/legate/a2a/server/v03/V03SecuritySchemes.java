package legate.a2a.server.v03;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import lf.a2a.v1.OAuthFlows;
import lf.a2a.v1.SecurityRequirement;
import lf.a2a.v1.SecurityScheme;

/**
 * A card's security schemes and requirements as v0.3 writes them: OpenAPI's form, a scheme
 * discriminated by {@code type} ({@code apiKey} with {@code in}, {@code http}, {@code oauth2},
 * {@code openIdConnect}, {@code mutualTLS}) and a requirement as {@code {name: [scopes]}}, where
 * v1.0 has a oneof member per scheme and {@code {schemes: {name: {list: [scopes]}}}}. v0.3 knows
 * no device-code OAuth flow: it is left out of a v0.3 card.
 */
final class V03SecuritySchemes {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private V03SecuritySchemes() {
    }

    static ObjectNode schemes(Map<String, SecurityScheme> schemes) {
        ObjectNode out = JSON.objectNode();
        schemes.forEach((name, scheme) -> out.set(name, scheme(scheme)));
        return out;
    }

    static ObjectNode scheme(SecurityScheme s) {
        ObjectNode out = JSON.objectNode();
        String description = switch (s.getSchemeCase()) {
            case API_KEY_SECURITY_SCHEME -> {
                out.put("type", "apiKey").put("in", s.getApiKeySecurityScheme().getLocation())
                        .put("name", s.getApiKeySecurityScheme().getName());
                yield s.getApiKeySecurityScheme().getDescription();
            }
            case HTTP_AUTH_SECURITY_SCHEME -> {
                out.put("type", "http").put("scheme", s.getHttpAuthSecurityScheme().getScheme());
                putIfSet(out, "bearerFormat", s.getHttpAuthSecurityScheme().getBearerFormat());
                yield s.getHttpAuthSecurityScheme().getDescription();
            }
            case OAUTH2_SECURITY_SCHEME -> {
                out.put("type", "oauth2").set("flows", flows(s.getOauth2SecurityScheme().getFlows()));
                putIfSet(out, "oauth2MetadataUrl", s.getOauth2SecurityScheme().getOauth2MetadataUrl());
                yield s.getOauth2SecurityScheme().getDescription();
            }
            case OPEN_ID_CONNECT_SECURITY_SCHEME -> {
                out.put("type", "openIdConnect")
                        .put("openIdConnectUrl", s.getOpenIdConnectSecurityScheme().getOpenIdConnectUrl());
                yield s.getOpenIdConnectSecurityScheme().getDescription();
            }
            case MTLS_SECURITY_SCHEME -> {
                out.put("type", "mutualTLS");
                yield s.getMtlsSecurityScheme().getDescription();
            }
            case SCHEME_NOT_SET -> "";
        };
        putIfSet(out, "description", description);
        return out;
    }

    private static ObjectNode flows(OAuthFlows f) {
        ObjectNode out = JSON.objectNode();
        switch (f.getFlowCase()) {
            case AUTHORIZATION_CODE -> out.set("authorizationCode", flow(f.getAuthorizationCode().getAuthorizationUrl(),
                    f.getAuthorizationCode().getTokenUrl(), f.getAuthorizationCode().getRefreshUrl(),
                    f.getAuthorizationCode().getScopesMap()));
            case CLIENT_CREDENTIALS -> out.set("clientCredentials", flow("", f.getClientCredentials().getTokenUrl(),
                    f.getClientCredentials().getRefreshUrl(), f.getClientCredentials().getScopesMap()));
            case IMPLICIT -> out.set("implicit", flow(f.getImplicit().getAuthorizationUrl(), "",
                    f.getImplicit().getRefreshUrl(), f.getImplicit().getScopesMap()));
            case PASSWORD -> out.set("password", flow("", f.getPassword().getTokenUrl(),
                    f.getPassword().getRefreshUrl(), f.getPassword().getScopesMap()));
            // PROTOCOL (A2A v0.3 §5.5.3, OpenAPI 3.0): no device-code flow in v0.3; the scheme stays, flowless.
            case DEVICE_CODE, FLOW_NOT_SET -> {
            }
        }
        return out;
    }

    private static ObjectNode flow(String authorizationUrl, String tokenUrl, String refreshUrl, Map<String, String> scopes) {
        ObjectNode out = JSON.objectNode();
        putIfSet(out, "authorizationUrl", authorizationUrl);
        putIfSet(out, "tokenUrl", tokenUrl);
        putIfSet(out, "refreshUrl", refreshUrl);
        ObjectNode s = out.putObject("scopes");
        scopes.forEach(s::put);
        return out;
    }

    static ArrayNode requirements(List<SecurityRequirement> requirements) {
        ArrayNode out = JSON.arrayNode();
        for (SecurityRequirement r : requirements) {
            ObjectNode one = out.addObject();
            r.getSchemesMap().forEach((name, scopes) -> {
                ArrayNode list = one.putArray(name);
                scopes.getListList().forEach(list::add);
            });
        }
        return out;
    }

    static void putIfSet(ObjectNode out, String name, String value) {
        if (value != null && !value.isEmpty()) {
            out.put(name, value);
        }
    }
}
