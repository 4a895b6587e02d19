package legate.a2a.server.auth;

import lf.a2a.v1.HTTPAuthSecurityScheme;
import lf.a2a.v1.SecurityScheme;
import org.eclipse.jetty.http.HttpFields;

/**
 * Opaque bearer tokens (RFC 6750) from the tokens file ({@code A2A_TOKENS_FILE}): the card declares
 * an HTTP {@code Bearer} scheme named {@value #NAME}.
 */
public record BearerTokens(TokensFile tokens) implements CredentialScheme {
    public static final String NAME = "bearer";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public SecurityScheme declaration() {
        return SecurityScheme.newBuilder().setHttpAuthSecurityScheme(HTTPAuthSecurityScheme.newBuilder()
                .setScheme("Bearer")
                .setDescription("A token from this agent's operator, sent as Authorization: Bearer <token>.")).build();
    }

    @Override
    public String challenge() {
        return "Bearer realm=\"a2a\"";
    }

    @Override
    public Verdict verify(Presented presented) {
        HttpFields headers = presented.headers();
        String token = BearerCredential.of(headers);
        if (token == null) {
            return new Verdict.Absent();
        }
        return tokens.match(token).<Verdict>map(Verdict.Accepted::new)
                .orElseGet(() -> new Verdict.Refused("a bearer token not in the tokens file"));
    }
}
