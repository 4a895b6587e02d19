package legate.a2a.server.auth;

import lf.a2a.v1.APIKeySecurityScheme;
import lf.a2a.v1.SecurityScheme;
import org.eclipse.jetty.http.HttpFields;

/**
 * API keys in a request header ({@code A2A_API_KEY_HEADER}, default {@value #DEFAULT_HEADER}): the
 * entries of the same tokens file, for clients that can set a header but not Authorization. The
 * card declares an API-key scheme named {@value #NAME} with {@code location: header}.
 */
public record ApiKeys(String header, TokensFile tokens) implements CredentialScheme {
    public static final String NAME = "apiKey";
    public static final String DEFAULT_HEADER = "X-API-Key";

    public ApiKeys {
        if (header == null || header.isBlank() || !header.chars().allMatch(c -> c > 32 && c < 127 && c != ':')) {
            throw new IllegalArgumentException("the API key header must be an HTTP header name, got \"" + header + "\"");
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public SecurityScheme declaration() {
        // PROTOCOL (a2a.proto APIKeySecurityScheme): "location", not OpenAPI's "in".
        return SecurityScheme.newBuilder().setApiKeySecurityScheme(APIKeySecurityScheme.newBuilder()
                .setLocation("header")
                .setName(header)
                .setDescription("A key from this agent's operator, sent in the " + header + " header.")).build();
    }

    @Override
    public String challenge() {
        // No registered HTTP scheme names an API key; the parameter tells a person which header to send.
        return "ApiKey realm=\"a2a\", header=\"" + header + "\"";
    }

    @Override
    public Verdict verify(Presented presented) {
        HttpFields headers = presented.headers();
        String key = headers.get(header);
        if (key == null || key.isBlank()) {
            return new Verdict.Absent();
        }
        return tokens.match(key.trim()).<Verdict>map(Verdict.Accepted::new)
                .orElseGet(() -> new Verdict.Refused("an API key not in the tokens file"));
    }
}
