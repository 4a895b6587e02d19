package legate.a2a.server.auth;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import legate.a2a.server.Principal;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.SecurityRequirement;
import lf.a2a.v1.StringList;
import org.eclipse.jetty.http.HttpFields;

/**
 * How a server authenticates its callers (A2A §7): the schemes its card declares, any one of which
 * a request may satisfy. With no scheme every caller is {@link Principal#ANONYMOUS}, which a server
 * may only be on a loopback address (the command line enforces it).
 *
 * <p>Checked by the HTTP edge on every request but the public card, before the body is read: a
 * caller without an accepted credential costs a header lookup and never reaches a task.
 */
public record CallerAuthentication(List<CredentialScheme> schemes, ForwardedCertificates forwarded) {
    /** No scheme: every caller is anonymous. */
    public static final CallerAuthentication NONE = new CallerAuthentication(List.of());

    /**
     * @param forwarded how a client certificate another instance verified reaches this one on a
     *     forwarded request; null: alone, or no such request is taken as presenting one
     */
    public CallerAuthentication {
        schemes = List.copyOf(schemes);
    }

    public CallerAuthentication(List<CredentialScheme> schemes) {
        this(schemes, null);
    }

    /** The same schemes, taking a client certificate another instance verified as {@code forwarded} says. */
    public CallerAuthentication withForwarded(ForwardedCertificates forwarded) {
        return new CallerAuthentication(schemes, forwarded);
    }

    public boolean isEnabled() {
        return !schemes.isEmpty();
    }

    /**
     * The principal the request's credential proves; anonymous when no scheme is configured.
     *
     * @throws Unauthenticated when no scheme accepts the request: none sent, or none accepted
     */
    public Principal authenticate(HttpFields headers) {
        return authenticate(Presented.headers(headers));
    }

    /**
     * The principal what the caller presented proves: its headers, and the client certificate its
     * TLS handshake verified; anonymous when no scheme is configured.
     *
     * @throws Unauthenticated when no scheme accepts the request: none sent, or none accepted
     */
    public Principal authenticate(Presented presented) {
        if (schemes.isEmpty()) {
            return Principal.ANONYMOUS;
        }
        if (forwarded != null && presented.certificates().isEmpty()
                && presented.headers().contains(ForwardedCertificates.CHAIN)) {
            List<X509Certificate> chain = forwarded.vouched(presented.headers());
            if (!chain.isEmpty()) {
                presented = new Presented(presented.headers(), chain);
            }
        }
        List<String> refusals = new ArrayList<>();
        for (CredentialScheme scheme : schemes) {
            switch (scheme.verify(presented)) {
                case Verdict.Accepted a -> {
                    return a.principal();
                }
                case Verdict.Refused r -> refusals.add(scheme.name() + ": " + r.why());
                case Verdict.Absent x -> {
                }
            }
        }
        throw new Unauthenticated(refusals.isEmpty()
                ? "This agent needs a credential. " + howTo()
                : "The credential sent was not accepted. " + howTo(), challenges(),
                refusals.isEmpty() ? "no credential" : String.join("; ", refusals));
    }

    /**
     * The card as callers must read it: each scheme in {@code securitySchemes}, and one
     * {@code securityRequirements} entry per scheme, since any one of them is enough (A2A §7: the
     * requirements are alternatives). Schemes the card already declares are kept.
     */
    public AgentCard declareOn(AgentCard card) {
        if (schemes.isEmpty()) {
            return card;
        }
        AgentCard.Builder b = card.toBuilder();
        for (CredentialScheme scheme : schemes) {
            b.putSecuritySchemes(scheme.name(), scheme.declaration());
            b.addSecurityRequirements(SecurityRequirement.newBuilder()
                    .putSchemes(scheme.name(), StringList.getDefaultInstance()));
        }
        return b.build();
    }

    /** One {@code WWW-Authenticate} value per distinct challenge. */
    public List<String> challenges() {
        return schemes.stream().map(CredentialScheme::challenge).filter(Objects::nonNull).distinct().toList();
    }

    /**
     * The certificate authorities client certificates are checked against in the TLS handshake
     * ({@link ClientCertificates}); none when no scheme asks for one, and the server asks no client
     * for a certificate.
     */
    public List<X509Certificate> clientAuthorities() {
        return schemes.stream().filter(ClientCertificates.class::isInstance).map(ClientCertificates.class::cast)
                .flatMap(c -> c.authorities().stream()).toList();
    }

    /**
     * How a client certificate is checked, in the handshake and when another instance vouches for
     * one: against {@link #clientAuthorities()} and their revocation lists; null when no scheme asks
     * for a certificate. Make it once per server: it keeps what it made of the lists.
     */
    public ClientCertificateCheck clientCheck() {
        List<X509Certificate> authorities = clientAuthorities();
        if (authorities.isEmpty()) {
            return null;
        }
        RevocationList revocations = schemes.stream().filter(ClientCertificates.class::isInstance)
                .map(s -> ((ClientCertificates) s).revocations()).filter(Objects::nonNull).findFirst().orElse(null);
        return new ClientCertificateCheck(authorities, revocations);
    }

    private String howTo() {
        List<String> ways = new ArrayList<>();
        for (CredentialScheme scheme : schemes) {
            String way = switch (scheme) {
                case BearerTokens t -> "Authorization: Bearer <token>";
                case JwtBearer j -> "Authorization: Bearer <JWT access token>";
                case ApiKeys k -> k.header() + ": <key>";
                case ClientCertificates c -> "a TLS client certificate issued by this agent's client authority";
            };
            if (!ways.contains(way)) {
                ways.add(way);
            }
        }
        return "Send " + String.join(" or ", ways) + " (the Agent Card's securitySchemes).";
    }
}
