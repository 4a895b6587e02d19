package legate.a2a.server.auth;

import java.security.cert.X509Certificate;
import java.util.List;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import legate.a2a.server.Principal;
import lf.a2a.v1.MutualTlsSecurityScheme;
import lf.a2a.v1.SecurityScheme;

/**
 * Mutual TLS (A2A §7, the card's {@code mtlsSecurityScheme}): a caller proves who it is with a
 * client certificate issued by one of the certificate authorities {@code A2A_CLIENT_CA} names. The
 * TLS handshake does the checking: a server with this scheme asks every client for a certificate,
 * trusts only these authorities for it, and fails the handshake of a client whose certificate they
 * did not issue (or that has expired), so a certificate that reaches this scheme was verified. The
 * principal is the certificate subject's common name (CN), so an authority should be given to
 * this agent's callers alone: whatever it signs, with whatever name, is a caller.
 *
 * <p>A client that sends no certificate is not refused by the handshake, since another scheme may
 * admit it; with no other scheme it gets the 401 every scheme's absence gets.
 */
public record ClientCertificates(List<X509Certificate> authorities, RevocationList revocations) implements CredentialScheme {
    public static final String NAME = "mtls";

    /** @param revocations the authorities' revocation lists (A2A_CLIENT_CRL); null: none is consulted */
    public ClientCertificates {
        authorities = List.copyOf(authorities);
        if (authorities.isEmpty()) {
            throw new IllegalArgumentException("mutual TLS needs at least one certificate authority to trust");
        }
    }

    /** The authorities, with no revocation list. */
    public ClientCertificates(List<X509Certificate> authorities) {
        this(authorities, null);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public SecurityScheme declaration() {
        return SecurityScheme.newBuilder().setMtlsSecurityScheme(MutualTlsSecurityScheme.newBuilder()
                .setDescription("A TLS client certificate issued by this agent's client certificate authority;"
                        + " the caller is its subject's common name.")).build();
    }

    /** None: no HTTP authentication scheme names a client certificate, which is asked for in the TLS handshake. */
    @Override
    public String challenge() {
        return null;
    }

    @Override
    public Verdict verify(Presented presented) {
        if (presented.certificates().isEmpty()) {
            return new Verdict.Absent();
        }
        String name = commonName(presented.certificates().getFirst());
        if (name == null) {
            return new Verdict.Refused("a client certificate whose subject has no common name");
        }
        try {
            return new Verdict.Accepted(new Principal.Named(name));
        } catch (IllegalArgumentException e) {
            return new Verdict.Refused("a client certificate whose common name is no usable name (" + e.getMessage() + ")");
        }
    }

    /**
     * The subject's CN; of several, the most specific (the leftmost in RFC 4514's string, the last
     * in LdapName's order); null when there is none.
     */
    static String commonName(X509Certificate certificate) {
        try {
            String cn = null;
            for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN") && rdn.getValue() instanceof String value && !value.isBlank()) {
                    cn = value;
                }
            }
            return cn;
        } catch (InvalidNameException e) {
            return null;
        }
    }
}
