package legate.a2a.server.auth;

import java.io.IOException;
import java.security.GeneralSecurityException;
import java.security.cert.CertStore;
import java.security.cert.CertificateException;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.X509CRL;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.CertPathTrustManagerParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import legate.a2a.server.edge.TlsIdentity;

/**
 * How a client certificate is checked (mutual TLS), in the TLS handshake of HTTPS and gRPC alike
 * and for a chain another instance vouches for: issued by one of the client authorities
 * ({@code A2A_CLIENT_CA}), valid now, meant for TLS clients (key and extended key usage), and, with
 * revocation lists ({@code A2A_CLIENT_CRL}), not revoked. PKIX does the checking; the lists are
 * looked at on every check and the PKIX manager made again only when they changed.
 */
public final class ClientCertificateCheck implements X509TrustManager {
    private final List<X509Certificate> authorities;
    private final RevocationList revocations;
    private volatile Made made;

    private record Made(List<X509CRL> lists, X509TrustManager pkix) {
    }

    /** @param revocations the authorities' revocation lists; null: certificates are not checked for revocation */
    public ClientCertificateCheck(List<X509Certificate> authorities, RevocationList revocations) {
        if (authorities.isEmpty()) {
            throw new IllegalArgumentException("mutual TLS needs at least one certificate authority to trust");
        }
        this.authorities = List.copyOf(authorities);
        this.revocations = revocations;
        this.made = make(revocations == null ? List.of() : revocations.current());
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        pkix().checkClientTrusted(chain, authType);
    }

    /** Whether the chain passes, as a handshake would check it (the key's algorithm as its type). */
    public boolean accepts(List<X509Certificate> chain) {
        try {
            checkClientTrusted(chain.toArray(X509Certificate[]::new), chain.getFirst().getPublicKey().getAlgorithm());
            return true;
        } catch (CertificateException | IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The soonest {@code nextUpdate} of the revocation lists as they are now, in Unix seconds; NaN
     * without lists (or with one that names none).
     */
    public double nextUpdateEpochSeconds() {
        if (revocations == null) {
            return Double.NaN;
        }
        return revocations.current().stream().map(X509CRL::getNextUpdate)
                .mapToDouble(d -> d == null ? Double.NaN : d.toInstant().getEpochSecond()).min().orElse(Double.NaN);
    }

    /** Whether revocation lists are consulted. */
    public boolean revokes() {
        return revocations != null;
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
        throw new CertificateException("client authorities check clients, not servers");
    }

    /** The authorities named to a client in the handshake's certificate request. */
    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return authorities.toArray(X509Certificate[]::new);
    }

    private X509TrustManager pkix() {
        Made m = made;
        if (revocations != null) {
            List<X509CRL> now = revocations.current();
            if (now != m.lists()) {
                m = make(now);
                made = m;
            }
        }
        return m.pkix();
    }

    private Made make(List<X509CRL> lists) {
        try {
            PKIXBuilderParameters parameters = new PKIXBuilderParameters(TlsIdentity.trustStore(authorities),
                    new X509CertSelector());
            // With lists, a certificate of an authority without a current one is refused: its status is unknown.
            parameters.setRevocationEnabled(!lists.isEmpty());
            if (!lists.isEmpty()) {
                parameters.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(lists)));
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance("PKIX");
            factory.init(new CertPathTrustManagerParameters(parameters));
            for (TrustManager t : factory.getTrustManagers()) {
                if (t instanceof X509TrustManager x) {
                    return new Made(lists, x);
                }
            }
            throw new IllegalStateException("PKIX made no X.509 trust manager");
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("the client authorities cannot be used: " + e.getMessage(), e);
        }
    }
}
