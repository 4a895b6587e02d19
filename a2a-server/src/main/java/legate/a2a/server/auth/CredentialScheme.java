package legate.a2a.server.auth;

import lf.a2a.v1.SecurityScheme;

/**
 * One way a caller proves who it is (A2A §7), as the Agent Card declares it in
 * {@code securitySchemes} and as the HTTP edge checks it on every request but the public card.
 */
public sealed interface CredentialScheme permits BearerTokens, ApiKeys, JwtBearer, ClientCertificates {
    /** The scheme's key in the card's {@code securitySchemes} and {@code securityRequirements}. */
    String name();

    /** The scheme as the card declares it. */
    SecurityScheme declaration();

    /**
     * The {@code WWW-Authenticate} challenge (RFC 9110 §11.6.1) a refused caller is sent for this
     * scheme; null for one that no HTTP authentication scheme names (a client certificate).
     */
    String challenge();

    /** Checks the request's credential of this scheme, if it carries one. Thread-safe. */
    Verdict verify(Presented presented);
}
