package legate.a2a.server.edge;

import java.io.IOException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CRL;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import legate.wire.pem.KeyPairs;
import legate.wire.pem.PemException;
import legate.wire.pem.PemFile;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * A server's TLS identity: its certificate chain (its own certificate first, then the
 * intermediates) and the private key of the first certificate, read from PEM files as a CA or
 * openssl hands them out.
 *
 * <p>Checked when read, so that a bad pair stops the server at start with a sentence instead of
 * failing every handshake later: the key must belong to the first certificate, and that
 * certificate must be valid now.
 */
public record TlsIdentity(List<X509Certificate> chain, PrivateKey key) {
    public TlsIdentity {
        chain = List.copyOf(chain);
    }

    /**
     * Reads the chain from {@code certFile} and the key from {@code keyFile} (PKCS#8, or traditional
     * RSA or EC).
     *
     * @throws PemException naming the file and what is wrong with it
     */
    public static TlsIdentity read(Path certFile, Path keyFile, Instant now) throws PemException {
        List<X509Certificate> chain = PemFile.read(certFile).certificates();
        PrivateKey key = PemFile.read(keyFile).privateKey();
        X509Certificate leaf = chain.getFirst();
        try {
            leaf.checkValidity(Date.from(now));
        } catch (CertificateExpiredException e) {
            throw new PemException(certFile + ": the certificate expired on " + leaf.getNotAfter().toInstant());
        } catch (CertificateNotYetValidException e) {
            throw new PemException(certFile + ": the certificate is not valid before " + leaf.getNotBefore().toInstant());
        }
        if (!KeyPairs.belongTogether(key, leaf.getPublicKey())) {
            throw new PemException(keyFile + ": this key does not belong to the first certificate in " + certFile
                    + " (" + leaf.getSubjectX500Principal().getName() + ")");
        }
        return new TlsIdentity(chain, key);
    }

    /** Jetty's server-side TLS set up with this identity, in an in-memory key store. */
    public SslContextFactory.Server sslContextFactory() {
        return sslContextFactory(null);
    }

    /**
     * Jetty's server-side TLS set up with this identity, in an in-memory key store, and with mutual
     * TLS when {@code clientCheck} is given: each client is asked for a certificate, which must pass
     * that check (its authorities, their revocation lists) or the handshake fails. A client may send
     * none (want, not need): another authentication scheme may admit it, and the public card is for
     * everyone.
     */
    public SslContextFactory.Server sslContextFactory(X509TrustManager clientCheck) {
        char[] password = randomPassword();
        try {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("legate", key, password, chain.toArray(new X509Certificate[0]));
            SslContextFactory.Server ssl = clientCheck == null ? new SslContextFactory.Server()
                    : new SslContextFactory.Server() {
                        @Override
                        protected TrustManager[] getTrustManagers(KeyStore trustStore, Collection<? extends CRL> crls) {
                            return new TrustManager[] {clientCheck};
                        }
                    };
            ssl.setKeyStore(store);
            ssl.setKeyStorePassword(new String(password));
            ssl.setKeyManagerPassword(new String(password));
            if (clientCheck != null) {
                ssl.setWantClientAuth(true);
            }
            return ssl;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("the TLS key could not be held in a key store: " + e.getMessage(), e);
        }
    }

    /**
     * How this server dials the other instances of its agent (README "Several instances"): trusting
     * the JDK's authorities and the top of its own chain, its root or its own certificate. Instances
     * of one agent share a certificate or the authority that issued theirs, so a private one needs
     * no setting of its own; the host name is still checked.
     */
    public SSLContext peerContext() {
        try {
            TrustManagerFactory jdk = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            jdk.init((KeyStore) null);
            List<X509Certificate> anchors = new ArrayList<>();
            for (TrustManager m : jdk.getTrustManagers()) {
                if (m instanceof X509TrustManager x) {
                    anchors.addAll(List.of(x.getAcceptedIssuers()));
                }
            }
            anchors.add(chain.getLast());
            TrustManagerFactory both = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            both.init(trustStore(anchors));
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, both.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("the authorities to dial other instances with cannot be held: " + e.getMessage(), e);
        }
    }

    /** The authorities as a key store of trusted certificates, as JSSE's trust managers read them. */
    public static KeyStore trustStore(List<X509Certificate> authorities) throws GeneralSecurityException, IOException {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        for (int i = 0; i < authorities.size(); i++) {
            trusted.setCertificateEntry("client-ca-" + i, authorities.get(i));
        }
        return trusted;
    }

    private static char[] randomPassword() {
        byte[] bytes = new byte[18];
        new SecureRandom().nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes).toCharArray();
    }
}
