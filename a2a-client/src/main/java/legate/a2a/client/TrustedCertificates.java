package legate.a2a.client;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import legate.wire.pem.PemException;
import legate.wire.pem.PemFile;

/**
 * The certificate authorities an https client accepts: the JDK's own, plus those of a PEM file
 * (A2A_CA_CERT), for an agent whose certificate comes from a private CA. Host names are still
 * checked against the certificate, as for any https call.
 */
public final class TrustedCertificates {
    private TrustedCertificates() {
    }

    /**
     * A TLS context trusting the JDK's authorities and every certificate in {@code caFile}.
     *
     * @throws PemException naming the file when it holds no certificate
     */
    public static SSLContext withCaFile(Path caFile) throws PemException {
        return context(caFile, null);
    }

    /**
     * A TLS context trusting the JDK's authorities and those of {@code caFile} (null: the JDK's
     * only), and presenting {@code certificate} to a server that asks for one (mutual TLS; null:
     * none).
     *
     * @throws PemException naming the file when it holds no certificate or they cannot be used
     */
    public static SSLContext context(Path caFile, ClientCertificate certificate) throws PemException {
        List<X509Certificate> cas = caFile == null ? List.of() : PemFile.read(caFile).certificates();
        try {
            X509TrustManager jdk = trustManager(null);
            X509TrustManager trusted = jdk;
            if (!cas.isEmpty()) {
                KeyStore extra = KeyStore.getInstance("PKCS12");
                extra.load(null, null);
                for (int i = 0; i < cas.size(); i++) {
                    extra.setCertificateEntry("ca-" + i, cas.get(i));
                }
                trusted = new Either(jdk, trustManager(extra));
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(certificate == null ? null : certificate.keyManagers(), new TrustManager[] {trusted}, null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new PemException((caFile != null ? caFile + ": its certificates cannot be trusted"
                    : "the client certificate cannot be used") + " (" + e.getMessage() + ")");
        }
    }

    private static X509TrustManager trustManager(KeyStore store) throws GeneralSecurityException {
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(store);
        for (TrustManager tm : factory.getTrustManagers()) {
            if (tm instanceof X509TrustManager x509) {
                return x509;
            }
        }
        throw new GeneralSecurityException("no X.509 trust manager");
    }

    /**
     * Trusts a chain either authority set accepts. The JDK wraps a plain X509TrustManager so that
     * the host name is checked against the certificate all the same.
     */
    private record Either(X509TrustManager first, X509TrustManager second) implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            try {
                first.checkClientTrusted(chain, authType);
            } catch (CertificateException e) {
                second.checkClientTrusted(chain, authType);
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            try {
                first.checkServerTrusted(chain, authType);
            } catch (CertificateException e) {
                second.checkServerTrusted(chain, authType);
            }
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            List<X509Certificate> all = new ArrayList<>(List.of(first.getAcceptedIssuers()));
            all.addAll(List.of(second.getAcceptedIssuers()));
            return all.toArray(new X509Certificate[0]);
        }
    }
}
